/**
 * Issue 41 items 1 and 2 on RabbitMQ 4.3 (names start with "browser-flow:"), at 1280x800 and
 * 1440x900: one broker context. Deployed to a throwaway vhost under a prefix, every broker panel
 * says that vhost (Live trace, Operate, Dead letters, Open) without being told again; the
 * management API is the one the server tries for :5673 (never "port 15672" alone); Operate
 * reads the deployed queues through the prefix and Browse lists the parked messages by their
 * message-id. The live replay plays on the broker's clock and ends with the broker: every token
 * where the broker holds the message.
 */
import type { Page } from 'playwright-core';
import { assert, waitFor, type Flow } from '../lib/harness.js';
import { B43, openTemplate, setBrokerUrl, SIZES, traceFinished } from '../lib/steps.js';
import { tearDown } from './brokerFlows.js';
import { mgmt } from './operateFlows.js';
import { throwawayVhost } from '../lib/throwawayVhost.js';

const MESSAGES = 20;

interface ReplayState {
  p: number;
  end: number;
  playing: boolean;
  brokerTime: boolean;
  /** the live run's last event on the display clock, and where its tokens are all at rest */
  lastEventP: number;
  liveEndP: number;
  ends: string[];
}

/** the replay as the canvas draws it: where each live message is left, and the clock */
const replay = (page: Page): Promise<ReplayState> =>
  page.evaluate(() => {
    interface Plan {
      endP: number;
      eventP: Float64Array;
      /** the core's outcome (sim/messageOutcome.ts) the player read with the design's fate rules */
      tracks: { fate?: { kind: string }; end: number; stops: { node: string }[] }[];
    }
    const o = (
      window as unknown as {
        __overlay: {
          player: { p: number; endP: number; playing: boolean; brokerTime: boolean; plans: { live: Plan | null } };
        };
      }
    ).__overlay;
    const live = o.player.plans.live;
    const p = o.player.p;
    return {
      p,
      end: o.player.endP,
      playing: o.player.playing,
      brokerTime: o.player.brokerTime,
      lastEventP: live ? Math.max(...live.eventP) : 0,
      liveEndP: live ? live.endP : 0,
      // drawn now: a resting or moving token at its last stop; an acked or dropped one is gone after its end
      ends: (live?.tracks ?? []).map((t) =>
        ['acked', 'discarded', 'dropped', 'expired', 'limit'].includes(t.fate?.kind ?? '') && p > t.end
          ? 'gone'
          : `${t.fate?.kind ?? 'none'}@${t.stops[t.stops.length - 1]?.node ?? '-'}`,
      ),
    };
  });

const context = async (page: Page, panel: string) => {
  const line = page.locator(`[data-testid=broker-context][data-panel=${panel}]`);
  return {
    vhost: await line.getAttribute('data-vhost'),
    prefix: await line.getAttribute('data-prefix'),
    management: await line.getAttribute('data-management'),
    text: await line.innerText(),
  };
};

/** Deploys the open template to the vhost under the prefix; the context line on the Broker tab follows. */
async function deploy(page: Page, vhost: string, prefix: string, shot: (n: string) => Promise<void>): Promise<void> {
  await page.click('[data-testid=tab-broker]');
  await setBrokerUrl(page, B43.amqp);
  await page.fill('[data-testid=broker-management-url]', '');
  await page.fill('[data-testid=deploy-vhost]', vhost);
  await page.fill('[data-testid=deploy-prefix]', prefix);
  // before a probe: the candidates the server tries for a :5673 broker, in its order
  const before = await context(page, 'broker');
  assert(
    before.management === 'http://127.0.0.1:15672 http://127.0.0.1:15673',
    `the management candidates of a :5673 broker: ${before.management}`,
  );
  await page.click('[data-testid=broker-probe]');
  await page.waitForSelector('[data-testid=broker-probe-result]', { timeout: 20_000 });
  await waitFor(
    'the probe to name the management API',
    async () => (await context(page, 'broker')).management === 'http://127.0.0.1:15673',
  );
  await page.click('[data-testid=broker-plan]');
  await page.waitForSelector('[data-testid=plan-diff]', { timeout: 20_000 });
  await page.click('[data-testid=broker-apply]');
  await page.waitForSelector('[data-testid=deploy-result]', { timeout: 30_000 });
  const after = await context(page, 'broker');
  assert(after.vhost === vhost && after.prefix === prefix, `the context is the deployment: ${after.text}`);
  await shot('deployed');
}

/** A trace whose workers always fail: every message ends parked; the replay ends with the broker. */
async function traceToTheEnd(page: Page, vhost: string, prefix: string, shot: (n: string) => Promise<void>) {
  await page.click('[data-testid=tab-trace]');
  const ctx = await context(page, 'trace');
  assert(ctx.vhost === vhost && ctx.prefix === prefix, `the trace acts on the deployment: ${ctx.text}`);
  await page.selectOption('[data-testid=trace-failure]', 'always');
  await page.fill('[data-testid=trace-count]', String(MESSAGES));
  await page.click('[data-testid=trace-start]');
  await traceFinished(page);
  const finishedAt = Date.now();
  const atFinish = await replay(page);
  assert(atFinish.brokerTime, 'a live trace plays on the broker clock');
  const clock = page.locator('[data-testid=sim-clock]');
  assert((await clock.getAttribute('data-clock')) === 'broker', 'the clock says it is the broker clock');
  // the live tokens stop within a second of the broker's last event (the prediction beside them may end later: the clock runs on to it)
  assert(
    atFinish.liveEndP - atFinish.lastEventP <= 1000,
    `live tokens at rest within a second of the last event: ${JSON.stringify({ ...atFinish, ends: undefined })}`,
  );
  const ended = await waitFor(
    'the replay at its end',
    async () => {
      const r = await replay(page);
      return r.p >= r.end && !r.playing ? r : undefined;
    },
    30_000,
  );
  const lag = Date.now() - finishedAt;
  // what was left to play at "finished", at 1x, plus the page's polling: the replay does not outlive the broker
  assert(lag <= Math.max(0, atFinish.end - atFinish.p) + 2500, `the replay ended ${lag} ms after the trace`);
  const t = Number(await clock.getAttribute('data-t'));
  const end = Number(await clock.getAttribute('data-end'));
  assert(Math.abs(t - end) <= 1, `the clock stops at the broker's last event: t ${t}, end ${end}`);
  const [done, total] = ((await clock.getAttribute('data-events')) ?? '').split('/').map(Number);
  assert(done === total && total! > 0, `every event of the trace played: ${done}/${total}`);
  assert(
    ended.ends.length === MESSAGES && ended.ends.every((e) => e === 'parked@queue:orders.parking'),
    `every token rests where the broker holds it (orders.parking): ${ended.ends.join(', ')}`,
  );
  const held = await waitFor(
    'the broker holding them in the parking queue',
    async () => {
      const v = encodeURIComponent(vhost);
      const [parking, work] = (await Promise.all(
        ['orders.parking', 'orders.q'].map((q) => mgmt(B43.mgmt, 'GET', `/api/queues/${v}/${prefix}${q}`)),
      )) as { messages?: number }[];
      return parking?.messages === MESSAGES && work?.messages === 0 ? true : undefined;
    },
    20_000,
  );
  assert(held, 'the broker holds the 20 in the parking queue and none in orders.q');
  await shot('trace-end');
  // the broker clock ("t = … / …", "1× broker") keeps the bar on one row, whichever failure inputs it shows
  for (const kind of ['percent', 'failFirst', 'always']) {
    await page.selectOption('[data-testid=sim-failure]', kind);
    const h = await page.locator('[data-testid=sim-bar]').evaluate((el) => el.getBoundingClientRect().height);
    assert(h < 48, `sim bar on one row with ${kind} on the broker clock (height ${h}px)`);
  }
}

/** Operate and Dead letters act on the deployed vhost: live depths through the prefix, Browse lists by message-id. */
async function operateTheDeployment(
  page: Page,
  vhost: string,
  prefix: string,
  shot: (n: string) => Promise<void>,
): Promise<void> {
  await page.click('[data-testid=tab-operate]');
  assert(
    (await page.inputValue('[data-testid=operate-vhost]')) === vhost &&
      (await page.inputValue('[data-testid=operate-prefix]')) === prefix,
    'Operate shows the deployment, not a vhost of its own',
  );
  const ctx = await context(page, 'operate');
  assert(ctx.management === 'http://127.0.0.1:15673', `Operate names the 4.3 management API: ${ctx.text}`);
  assert(!/port 15672/.test(await page.locator('[data-testid=operate-panel]').innerText()), 'no "port 15672" here');
  await page.click('[data-testid=depths-toggle]');
  await waitFor(
    'a depth badge of 20 on the parking queue, read through the prefix',
    async () =>
      (await page
        .locator('[data-testid=node-queue][data-name="orders.parking"] [data-testid=depth-badge]')
        .getAttribute('data-ready')
        .catch(() => null)) === String(MESSAGES),
    30_000,
  );
  await shot('operate-depths');
  await page.click('[data-testid="operate-browse-orders.parking"]');
  await waitFor(
    'the parked messages listed',
    async () => {
      if (await page.locator('[data-testid=dlq-error]').count())
        throw new Error(await page.locator('[data-testid=dlq-error]').innerText());
      return (await page.locator('[data-testid=dlq-message]').count()) === MESSAGES;
    },
    20_000,
  );
  const dl = await context(page, 'dead-letters');
  assert(dl.vhost === vhost, `Dead letters browses the deployed vhost: ${dl.text}`);
  assert((await page.inputValue('[data-testid=dlq-queue]')) === `${prefix}orders.parking`, "the broker's queue name");
  const names = await page.locator('[data-testid=dlq-message-name]').allInnerTexts();
  assert(
    // the trace names its messages `${publisher}-${n}` (message-id); bodies are "msg-N"
    names.every((n) => /^publisher-\d+$/.test(n)),
    `listed by message-id, not by position or body: ${names.slice(0, 4).join(', ')}`,
  );
  await shot('dead-letters');
  await page.click('[data-testid=tab-operate]');
  await page.click('[data-testid=depths-toggle]');
  // Open > A live vhost names the same context
  await page.click('[data-testid=open-toggle]');
  assert((await page.inputValue('[data-testid=open-vhost]')) === vhost, 'Open > A live vhost: the deployed vhost');
  await shot('open-menu');
  await page.click('[data-testid=open-toggle]');
}

export const brokerContextFlow: Flow = {
  name: 'browser-flow: one broker context after a deploy; the live replay ends with the broker (4.3)',
  broker: true,
  expectedHttpErrors: ['409 POST /api/teardown'],
  async run({ page, url, shot }) {
    for (const s of SIZES) {
      const vhost = throwawayVhost('context');
      const v = encodeURIComponent(vhost);
      await mgmt(B43.mgmt, 'PUT', `/api/vhosts/${v}`, {});
      await mgmt(B43.mgmt, 'PUT', `/api/permissions/${v}/guest`, { configure: '.*', write: '.*', read: '.*' });
      const at = (n: string) => shot(`${s.w}-${n}`);
      try {
        await openTemplate(page, url, s, 'dlx-ttl-wait-queue&delayMs=200');
        const prefix = `bf${s.w}.`;
        await deploy(page, vhost, prefix, at);
        await traceToTheEnd(page, vhost, prefix, at);
        await operateTheDeployment(page, vhost, prefix, at);
        await page.click('[data-testid=tab-broker]');
        await tearDown(page);
      } finally {
        await mgmt(B43.mgmt, 'DELETE', `/api/vhosts/${v}`).catch(() => undefined);
      }
    }
  },
};
