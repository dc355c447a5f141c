import { describe, expect, it } from 'vitest';
import { chipRows, chipsPerLevel, chipsShown, lodOf, nameFitPx, nameLines, nameShownPx, NAME_W } from './faceFit';

describe('node face fitting', () => {
  it('sizes a long name to fit whole in two lines, and a very long one in three', () => {
    const name = 'billing.api.documents.dlx';
    const px = nameShownPx(name, 1);
    expect(px).toBeLessThanOrEqual(13);
    expect(nameLines(name, px)).toBeLessThanOrEqual(2);
    const long = 'com.example.payments.settlement.nightly.batch.documents.audit.dlq';
    expect(nameLines(long, nameFitPx(long))).toBe(3);
    expect(nameFitPx('orders.q')).toBeGreaterThan(13); // a short name keeps its full size
    expect(nameLines('orders.q', 13)).toBe(1);
    expect(nameFitPx(long) * 0.6 * long.length).toBeLessThanOrEqual(3 * NAME_W + 1e-9);
  });

  it('never sizes a name so that a word breaks inside ("notificatio / n")', () => {
    // one word: the whole word on one line, whatever the text scale asks for
    expect(nameFitPx('notification') * 0.6 * 'notification'.length).toBeLessThanOrEqual(NAME_W + 1e-9);
    expect(nameLines('notification', nameShownPx('notification', 2.6))).toBe(1);
    // words break at spaces and separators only: each line holds whole pieces
    for (const name of ['notification.error-exchange', 'listener (stateless retry)', 'test publisher']) {
      const px = nameShownPx(name, 2.6);
      const perLine = Math.floor(NAME_W / (0.6 * px));
      expect(perLine).toBeGreaterThanOrEqual(Math.max(...name.split(/[.\-_:/\s]/).map((w) => w.length + 1)) - 1);
    }
  });

  it('gives a short name two rows of chips at zoom 1, fewer as the text grows', () => {
    expect(chipRows('orders.q', 1)).toBe(2);
    expect(chipRows('orders.q', 1.85)).toBe(1);
    expect(chipRows('orders.q', 2.6)).toBe(0);
    // a name on two lines leaves one row
    expect(chipRows('orders.work.quorum.delivery', 1)).toBe(1);
  });

  it('keeps room for the +N chip when not every chip fits', () => {
    const labels = ['quorum', 'TTL 5s', 'DLX orders.dlx', 'limit 2', 'max 10k'];
    const n = chipsShown(labels, 1, 1);
    expect(n).toBeGreaterThan(0);
    expect(n).toBeLessThan(labels.length);
    expect(chipsShown(labels, 3, 1)).toBe(labels.length);
    expect(chipsShown(labels, 0, 1)).toBe(0);
  });

  it('packs per level, and maps the text scale to a level', () => {
    const per = chipsPerLevel('orders.q', ['quorum', 'limit 2']);
    expect(per.a.shown).toBe(2);
    expect(per.f.shown).toBe(0);
    // a defining setting is shown at every level, squeezed into its row where it must be
    const defining = chipsPerLevel('notification.error-exchange', ['DLX notification.dlx', 'limit 3', 'quorum'], 2);
    for (const l of Object.values(defining)) expect(l.shown).toBeGreaterThanOrEqual(2);
    expect(defining.f.squeezed).toBe(true);
    expect([lodOf(1), lodOf(1.05), lodOf(1.5), lodOf(2.6), lodOf(3)]).toEqual(['a', 'b', 'c', 'f', 'f']);
  });
});
