import { describe, expect, it } from 'vitest';
import {
  chipRows,
  chipsPerLevel,
  chipsShown,
  faceAt,
  FACE_LEVELS,
  lodOf,
  nameLines,
  nameShownPx,
  reservesRow,
} from './faceFit';

describe('node face fitting', () => {
  it('sizes a long name to fit whole within the face, on up to four lines', () => {
    const name = 'billing.api.documents.dlx';
    const px = nameShownPx(name, 1);
    expect(px).toBeLessThanOrEqual(13);
    expect(nameLines(name, px) * px * 1.15).toBeLessThanOrEqual(56 + 1e-9);
    const long = 'com.example.payments.settlement.nightly.batch.documents.audit.dlq';
    expect(nameLines(long, nameShownPx(long, 1))).toBeLessThanOrEqual(4);
    expect(nameShownPx('orders.q', 1)).toBe(13); // a short name keeps its full size
    expect(nameLines('orders.q', 13)).toBe(1);
    // zoomed out, a name grows towards 11 px on screen as far as the face has room
    expect(nameShownPx('orders.q', 2.6)).toBeGreaterThan(27);
    expect(nameShownPx('notification.error-exchange', 2.6)).toBeGreaterThan(
      nameShownPx('notification.error-exchange', 1),
    );
  });

  it('never sizes a name so that a word breaks inside ("notificatio / n")', () => {
    // one word: the whole word on one line, whatever the text scale asks for
    expect(nameLines('notification', nameShownPx('notification', 2.6))).toBe(1);
    // words break at spaces and separators only: each line holds whole pieces
    for (const name of ['notification.error-exchange', 'listener (stateless retry)', 'test publisher']) {
      const px = nameShownPx(name, 2.6);
      expect(nameLines(name, px)).toBeLessThan(Infinity);
      expect(Math.floor(160 / (0.6 * px))).toBeGreaterThanOrEqual(
        Math.max(...name.split(/[.\-_:/\s]/).map((w) => w.length)),
      );
    }
  });

  it('gives a short name two rows of chips at zoom 1, fewer as the text grows', () => {
    expect(chipRows('orders.q', 1)).toBe(2);
    expect(chipRows('orders.q', 1.85)).toBe(1);
    expect(chipRows('orders.q', 2.6)).toBe(1);
    // a long name on two lines leaves fewer rows than a short one when zoomed out
    expect(chipRows('orders.work.quorum.delivery.attempts', 1.85)).toBeLessThan(chipRows('orders.q', 1));
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
    expect(per.f.shown).toBe(1);
    // a defining setting is shown at every level, squeezed into its row where it must be
    // defining settings keep a row wherever the name still reads at 9 px on screen with it
    const name = 'notification.error-exchange';
    const defining = chipsPerLevel(name, ['DLX notification.dlx', 'limit 3', 'quorum'], 2);
    for (const l of FACE_LEVELS) {
      if (defining[l.lod].shown < 2) {
        expect(reservesRow(name, l.ts, true)).toBe(false);
        expect(nameShownPx(name, l.ts, true) / l.ts).toBeLessThan(9);
      }
    }
    expect(defining.a.shown).toBeGreaterThanOrEqual(2);
    expect(defining.c.shown).toBeGreaterThanOrEqual(2);
    expect([lodOf(1), lodOf(1.05), lodOf(1.5), lodOf(2.6), lodOf(3)]).toEqual(['a', 'b', 'c', 'f', 'f']);
  });

  it("keeps a queue's defining settings whole where the name beside its glyph leaves them no row: a tight face", () => {
    // chained-ttl's wait queue opened at 1280x800 (zoom 0.46: text scale 2.2): the settings were counted in "+2"
    const chips = [{ label: 'TTL 1s' }, { label: 'DLX orders.retry', short: 'DLX' }, { label: 'max 10k' }];
    const ts = 2.2;
    expect(reservesRow('orders.wait.1', ts, true)).toBe(false);
    const f = faceAt('orders.wait.1', chips, 2, ts);
    expect(f).toMatchObject({ tight: true, shown: 2, squeezed: false });
    // the name on the face's whole width reads at 9 px on screen and more, on one line
    expect(f.namePx / ts).toBeGreaterThanOrEqual(9);
    expect(nameLines('orders.wait.1', f.namePx, false)).toBe(1);
    // the whole DLX label does not fit beside the glyph and the TTL: its short one does (the edge says where)
    expect(f.short).toBe(true);
    // zoomed in, the face as it always was: the name beside its glyph, the settings whole under it
    expect(faceAt('orders.wait.1', chips, 2, 1)).toMatchObject({ tight: false, short: false, squeezed: false });
    expect(faceAt('orders.wait.1', chips, 2, 1).shown).toBeGreaterThanOrEqual(2);
    // a face with no defining settings is never tight
    expect(faceAt('orders.wait.1', [{ label: 'max 10k' }], 0, ts).tight).toBe(false);
  });

  it('cuts no defining setting where their short labels fit the row under the name (a canvas squeezed by a panel)', () => {
    // dlx-ttl-wait-queue's wait queue in a canvas the Rehearse panel had squeezed read "T…" and "DLX ord…"
    const chips = [{ label: 'TTL 500ms' }, { label: 'DLX orders.requeue', short: 'DLX' }];
    const ts = 2.2;
    expect(reservesRow('orders.wait', ts, true)).toBe(true);
    // the whole labels fit neither that row nor a tight face's
    expect(chipsShown(['TTL 500ms', 'DLX orders.requeue'], chipRows('orders.wait', ts, true), ts)).toBeLessThan(2);
    expect(faceAt('orders.wait', chips, 2, ts)).toMatchObject({ shown: 2, squeezed: false, tight: false, short: true });
  });
});
