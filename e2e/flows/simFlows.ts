import { assert, openFirstWorker, waitFor, type Flow } from '../lib/harness.js';

const drawn = (page: import('playwright-core').Page) =>
  page.evaluate(() => (window as unknown as { __overlay?: { drawnTokens: number } }).__overlay?.drawnTokens ?? -1);

export const simulateFlow: Flow = {
  name: 'simulate',
  async run({ page, url, shot }) {
    await page.goto(`${url}/?template=dlx-ttl-wait-queue`);
    await page.waitForSelector('.react-flow__node');
    await page.selectOption('[data-testid=sim-failure]', 'failFirst');
    await page.fill('[data-testid=sim-k]', '2');
    await page.fill('[data-testid=sim-count]', '5');
    await page.selectOption('[data-testid=sim-speed]', '10');
    await page.click('[data-testid=sim-run]');
    await page.waitForSelector('[data-testid=sim-summary]');
    assert((await page.locator('[data-testid=timeline-lane]').count()) === 5, 'one lane per message');
    // the control bar fits on one row at 1280x800, whichever failure model's inputs it shows
    for (const kind of ['percent', 'poison', 'failFirst']) {
      await page.selectOption('[data-testid=sim-failure]', kind);
      const h = await page.locator('[data-testid=sim-bar]').evaluate((el) => el.getBoundingClientRect().height);
      assert(h < 48, `sim bar on one row with ${kind} (height ${h}px)`);
    }
    await page.fill('[data-testid=sim-k]', '2');
    await shot('sim-bar');
    // Simulate starts playing by itself; on a slow machine it may still be playing here, and a
    // click would pause it: press Play only when the button offers it
    if ((await page.getAttribute('[data-testid=sim-play]', 'aria-label')) === 'Play')
      await page.click('[data-testid=sim-play]');
    await waitFor('tokens on the canvas', async () => (await drawn(page)) > 0, 10000);
    await shot('tokens');
    // depth counters and TTL waits are drawn on the same overlay; let it run into the wait queue
    await page.waitForTimeout(1500);
    await shot('playing');
    if ((await page.getAttribute('[data-testid=sim-play]', 'aria-label')) === 'Pause')
      await page.click('[data-testid=sim-play]'); // pause
    const c1 = await page.locator('[data-testid=sim-clock]').innerText();
    const evDone = async () =>
      Number(/event (\d+)\//.exec(await page.locator('[data-testid=sim-event]').innerText())?.[1] ?? NaN);
    const e1 = await evDone();
    await page.click('[data-testid=sim-step]');
    await page.click('[data-testid=sim-step]');
    await page.waitForTimeout(200);
    const e2 = await evDone();
    assert(e2 > e1, `stepping advances the event counter (${e1} → ${e2})`);
    const t1 = await page.evaluate(() => performance.now());
    assert(t1 > 0, 'page alive');
    await page.click('[data-testid=sim-reset]');
    await waitFor('reset to 0', async () =>
      (await page.locator('[data-testid=sim-clock]').innerText()).includes('0 ms'),
    );
    assert(c1.startsWith('t ='), 'clock shown');
    // every message ends acked after two failures
    const fates = await page.locator('[data-testid=timeline-lane]').allInnerTexts();
    assert(
      fates.every((f) => f.includes('acked')),
      `all acked: ${fates.join(' | ')}`,
    );
    // poison: never acked
    await page.selectOption('[data-testid=sim-failure]', 'always');
    await page.click('[data-testid=sim-run]');
    await page.waitForTimeout(200);
    const fates2 = await page.locator('[data-testid=timeline-lane]').allInnerTexts();
    assert(
      fates2.every((f) => !f.includes('acked')),
      `none acked when failing always: ${fates2.join(' | ')}`,
    );
  },
};

export const inspectMessageFlow: Flow = {
  name: 'inspect a message',
  async run({ page, url, shot }) {
    await page.goto(`${url}/?template=dlx-ttl-wait-queue`);
    await page.waitForSelector('.react-flow__node');
    await page.fill('[data-testid=sim-k]', '2');
    await page.fill('[data-testid=sim-count]', '2');
    await page.click('[data-testid=sim-run]');
    // marks sit where their times fall (a CSS variable holds the timeline's end): three attempts left to right inside the lane's track
    const marks = await page
      .locator('[data-testid=timeline-lane]')
      .first()
      .evaluate((lane) => {
        const els = Array.from(lane.querySelectorAll('span[title^="attempt"]')) as HTMLElement[];
        const track = els[0]?.parentElement?.getBoundingClientRect();
        return {
          track: track ? [track.left, track.right] : [],
          xs: els.map((m) => Math.round(m.getBoundingClientRect().left)),
        };
      });
    const [x0, x1, x2] = marks.xs;
    const [l, r] = marks.track;
    assert(
      marks.xs.length === 3 && x0! < x1! && x1! < x2! && x0! >= l! - 4 && x2! <= r! + 4,
      `attempt marks in time order inside the lane: ${JSON.stringify(marks)}`,
    );
    await page.locator('[data-testid=timeline-lane]').first().click();
    await page.waitForSelector('[data-testid=message-detail]');
    await page.waitForSelector('[data-testid=xdeath-table]');
    const rows = await page.locator('[data-testid=xdeath-table] tbody tr').allInnerTexts();
    assert(rows.length >= 1, 'x-death entries');
    assert(
      rows.some((r) => r.includes('rejected') && /\b2\b/.test(r)),
      `rejected twice in x-death: ${rows.join(' | ')}`,
    );
    await waitFor(
      'path highlighted on the canvas',
      async () => (await page.locator('[data-onpath=true]').count()) >= 3,
    );
    await shot('inspected');
    await page.keyboard.press('Escape');
    await waitFor('detail closed', async () => (await page.locator('[data-testid=message-detail]').count()) === 0);
  },
};

export const budgetFlow: Flow = {
  name: 'retry budget and strategy comparison',
  async run({ page, url, shot }) {
    await page.goto(`${url}/?template=dlx-ttl-wait-queue`);
    await page.waitForSelector('.react-flow__node');
    await page.selectOption('[data-testid=sim-failure]', 'always');
    await page.click('[data-testid=tab-budget]');
    await page.click('[data-testid=budget-compute]');
    await waitFor('budget rows', async () => (await page.locator('[data-testid=budget-row]').count()) >= 4, 30_000);
    const first = await page.locator('[data-testid=budget-row]').first().innerText();
    assert(/this design/.test(first), `the design's own budget comes first: ${first}`);
    assert(/parking|in /.test(first), `failing always ends parked: ${first}`);
    assert((await page.locator('[data-testid=budget-chart] circle').count()) >= 4, 'attempts plotted');
    // the time axis: every tick says its unit and shows whole inside the chart (the last one was cut to "10.00")
    const ticks = await page.locator('[data-testid=budget-chart]').evaluate((svg) => {
      const box = svg.getBoundingClientRect();
      return Array.from(svg.querySelectorAll('[data-testid=budget-tick]')).map((t) => {
        const r = t.getBoundingClientRect();
        return { text: t.textContent ?? '', inside: r.left >= box.left - 0.5 && r.right <= box.right + 0.5 };
      });
    });
    assert(
      ticks.length >= 3 && ticks.every((t) => /\d\s*(ms|s|min|h)$/.test(t.text) && t.inside),
      `axis ticks with units, whole: ${JSON.stringify(ticks)}`,
    );
    await shot('budget');
  },
};

export const everyTemplateFlow: Flow = {
  name: 'every template draws, simulates and animates',
  async run({ page, url }) {
    await page.goto(url);
    await page.waitForSelector('[data-testid=template-card]');
    const ids = await page
      .locator('[data-testid=template-card]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-template')!));
    const problems: string[] = [];
    for (const id of ids) {
      await page.goto(`${url}/?template=${id}`);
      await page.waitForSelector('.react-flow__node');
      await page.selectOption('[data-testid=sim-failure]', 'always');
      await page.selectOption('[data-testid=sim-speed]', '10000');
      await page.fill('[data-testid=sim-count]', '2');
      await page.click('[data-testid=sim-run]');
      const err = await page.locator('[data-testid=sim-error]').count();
      if (err) {
        problems.push(`${id}: ${await page.locator('[data-testid=sim-error]').innerText()}`);
        continue;
      }
      const lanes = await page.locator('[data-testid=timeline-lane]').count();
      if (lanes < 1) problems.push(`${id}: no timeline lanes`);
      await page.click('[data-testid=sim-play]');
      await page.waitForTimeout(700);
      const drawn = (await page.evaluate('window.__overlay ? window.__overlay.frames : 0')) as number;
      if (drawn < 5) problems.push(`${id}: the overlay is not animating`);
    }
    assert(problems.length === 0, problems.join('\n'));
  },
};

export const behaviourFormFlow: Flow = {
  name: 'edit a worker through the behaviour form',
  async run({ page, url, shot }) {
    await page.goto(`${url}/?template=dlx-ttl-wait-queue`);
    await page.waitForSelector('.react-flow__node');
    await page.selectOption('[data-testid=sim-failure]', 'never');
    await page.fill('[data-testid=sim-count]', '3');
    const run = async (): Promise<{ events: number; fates: string[] }> => {
      await page.click('[data-testid=sim-run]');
      await page.waitForSelector('[data-testid=sim-summary]');
      await page.waitForTimeout(150);
      const events = Number(
        /event \d+\/(\d+)/.exec(await page.locator('[data-testid=sim-summary]').innerText())?.[1] ?? NaN,
      );
      return { events, fates: await page.locator('[data-testid=timeline-lane]').allInnerTexts() };
    };
    const base = await run();
    assert(
      base.fates.length === 3 && base.fates.every((f) => f.includes('acked')),
      `never failing: all acked: ${base.fates.join(' | ')}`,
    );
    await openFirstWorker(page);
    await page.waitForSelector('[data-testid=behaviour-form]');
    // the worker's own failure model overrides the bar's
    await page.selectOption('[data-testid=field-failure]', 'always');
    const always = await run();
    assert(
      always.fates.every((f) => !f.includes('acked')),
      `failing always: none acked: ${always.fates.join(' | ')}`,
    );
    // retry once instead of three times: fewer hops
    const rule = page.locator('[data-testid=rule-row]').first();
    await rule.locator('[data-testid=field-rule-value]').fill('1');
    const once = await run();
    assert(once.events < always.events, `fewer events when retrying once (${once.events} < ${always.events})`);
    // an invalid value is named under the field, from the core's validation
    await rule.locator('[data-testid=field-rule-value]').fill('x');
    await waitFor(
      'field error under the value',
      async () => (await rule.locator('[data-testid=field-error]').count()) > 0,
    );
    await rule.locator('[data-testid=field-rule-value]').fill('1');
    // the last rule acks instead of parking: every message ends acked
    await page.locator('[data-testid=rule-row]').nth(1).locator('[data-testid=field-rule-action]').selectOption('ack');
    const acked = await run();
    assert(
      acked.fates.every((f) => f.includes('acked')),
      `last rule acks: all acked: ${acked.fates.join(' | ')}`,
    );
    const beh = JSON.parse(await page.locator('[data-testid=field-behaviour]').inputValue()) as {
      failure?: unknown;
      onFailure: Array<{ when?: { value: number }; then: { kind: string } }>;
    };
    assert(
      JSON.stringify(beh.failure) === '{"kind":"always"}' &&
        beh.onFailure[0]?.when?.value === 1 &&
        beh.onFailure[1]?.then.kind === 'ack',
      `JSON editor follows the form: ${JSON.stringify(beh)}`,
    );
    await shot('edited');
    // half-written JSON in the advanced editor: the form steps aside instead of breaking the inspector
    await page.fill('[data-testid=field-behaviour]', '{"kind":"worker"}');
    await page.waitForSelector('[data-testid=behaviour-form-unavailable]');
    await page.fill('[data-testid=field-behaviour]', JSON.stringify(beh));
    await page.waitForSelector('[data-testid=behaviour-form]');
    assert((await page.locator('[data-testid=rule-row]').count()) === 2, 'the form is back with both rules');
  },
};
