/**
 * Issue 30's smaller journeys (names start with "web-flows:"): a file with several vhosts asks
 * which to open and says what it left out; a pasted import is named from its content. Each flow
 * runs at 1280x800 and 1440x900 (screenshots of both).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { assert, waitFor, type Flow } from '../lib/harness.js';
import { throwawayVhost } from '../lib/throwawayVhost.js';
import { ROOT } from '../lib/server.js';
import { tearDown } from './brokerFlows.js';
import { importedSummary, makeVhost, mgmt } from './operateFlows.js';
import {
  B43,
  blankStart,
  designName,
  openFile,
  openTemplate,
  setBrokerUrl,
  SIZES,
  traceFinished,
} from '../lib/steps.js';
import { upgradeCompleteFlow } from './upgradeCompleteFlow.js';

const corpus = (name: string) => readFileSync(join(ROOT, 'apps', 'server', 'src', 'cli', 'corpus', name));

/** a file of the CLI's corpus, opened from the toolbar */
const openCorpusFile = (page: Page, name: string) => openFile(page, { name, text: corpus(name) });

export const multiVhostImportFlow: Flow = {
  // a file with several vhosts asks which, names each with its counts and notes; an empty "/" is said; a paste is named from its content
  name: 'web-flows: open several vhosts',
  async run({ page, url, shot }) {
    for (const s of SIZES) {
      await blankStart(page, url, s);

      // two vhosts with objects: asked, each named with its counts and its notes
      await openCorpusFile(page, 'localega-tools-two-vhosts.json');
      await page.waitForSelector('[data-testid=vhost-choice]');
      const rows = page.locator('[data-testid=vhost-choice-row]');
      assert((await rows.count()) === 2, 'both vhosts listed');
      const root = await rows.nth(0).innerText();
      const test = await rows.nth(1).innerText();
      assert(
        /"\/" \(\d+ exchanges?, \d+ queues/.test(root) && /"test" \(1 exchange, 4 queues, 4 bindings\)/.test(test),
        `each vhost with its counts: ${root} | ${test}`,
      );
      assert(
        (await page.locator('[data-testid=vhost-choice-note]').allInnerTexts()).some((n) =>
          n.startsWith('not imported:'),
        ),
        'the CLI\'s "not imported" notes shown',
      );
      await shot(`${s.w}-vhost-choice`);
      await rows.nth(1).locator('[data-testid=vhost-choice-open]').click();
      await waitFor(
        'the "test" vhost open',
        async () => (await page.locator('[data-testid=node-queue]').count()) === 4,
      );
      assert(
        (await designName(page)) === 'localega-tools-two-vhosts (test)',
        `named after the file and vhost: ${await designName(page)}`,
      );
      const notes = await page.locator('[data-testid=import-notes]').innerText();
      assert(notes.includes('not imported: 1 global parameter'), `the import notes: ${notes}`);
      await shot(`${s.w}-vhost-opened`);

      // each as its own design: both kept in My designs
      await openCorpusFile(page, 'localega-tools-two-vhosts.json');
      await page.waitForSelector('[data-testid=vhost-choice]');
      await page.click('[data-testid=vhost-choice-each]');
      // the import runs in a worker: the vhost opened before has the same name, the kept count says the two new ones are in
      await waitFor(
        'the last vhost open',
        async () =>
          (await designName(page)) === 'localega-tools-two-vhosts (test)' &&
          Number((await page.innerText('[data-testid=designs-toggle]')).replace(/\D/g, '')) >= 3,
      );
      await page.click('[data-testid=designs-toggle]');
      const kept = await page.locator('[data-testid=design-row]').allInnerTexts();
      assert(
        kept.some((t) => t.includes('localega-tools-two-vhosts (/)')) &&
          kept.filter((t) => t.includes('localega-tools-two-vhosts (test)')).length >= 2,
        `each vhost kept: ${kept.join(' | ')}`,
      );
      await page.keyboard.press('Escape');

      // "/" named but empty: the vhost with objects opens, and the empty one is said
      // the design before also has 4 queues: wait for this file's name, not the count alone
      await openCorpusFile(page, 'localega-cega-test-vhost.json');
      await waitFor('the cega file open', async () => (await designName(page)).startsWith('localega-cega-test-vhost'));
      await waitFor(
        'the "test" vhost drawn',
        async () => (await page.locator('[data-testid=node-queue]').count()) === 4,
      );
      const said = await page.locator('[data-testid=import-notes]').innerText();
      assert(said.includes('"/" holds no objects'), `the empty "/" is said: ${said}`);
      await shot(`${s.w}-empty-root`);

      // a paste: named from its content (the first own exchange), not "imported"
      await page.click('[data-testid=open-toggle]');
      await page.fill(
        '[data-testid=open-menu] [data-testid=import-text]',
        JSON.stringify({
          exchanges: [{ name: 'shop.retry', type: 'direct' }],
          queues: [{ name: 'shop.work', arguments: { 'x-dead-letter-exchange': 'shop.retry' } }],
          bindings: [],
        }),
      );
      await page.click('[data-testid=open-menu] [data-testid=import-apply]');
      await waitFor('the pasted design', async () => (await designName(page)) === 'shop.retry');
    }
  },
};

/** where the live replay leaves each message: its last stop and fate (the canvas draws these) */
const liveEnds = (page: Page) =>
  page.evaluate(() => {
    const o = (
      window as unknown as {
        __overlay?: {
          // a track's fate is the core's outcome (sim/messageOutcome.ts)
          player: {
            plans: {
              live: { tracks: { fate?: { kind: string }; stops: { node: string; until?: number }[] }[] } | null;
            };
          };
        };
      }
    ).__overlay;
    return (o?.player.plans.live?.tracks ?? []).map(
      (t) =>
        `${t.fate?.kind ?? 'none'}@${t.stops[t.stops.length - 1]?.node ?? '-'}${t.stops[t.stops.length - 1]?.until !== undefined ? '(waiting)' : ''}`,
    );
  });

export const brokerWalkFlow: Flow = {
  // on 4.3 in a vhost of its own: the probe card says that vhost and the management API it found; a trace with
  // "always" sets the simulation bar to it and ends where the broker ended; an undo back to the traced design is
  // current; after teardown neither Apply nor the trace can start
  name: 'web-flows: broker walk on 4.3',
  broker: true,
  expectedHttpErrors: ['409 POST /api/teardown'],
  async run({ page, url, shot }) {
    const vhost = throwawayVhost('wf');
    await mgmt(B43.mgmt, 'PUT', `/api/vhosts/${encodeURIComponent(vhost)}`, {});
    await mgmt(B43.mgmt, 'PUT', `/api/permissions/${encodeURIComponent(vhost)}/guest`, {
      configure: '.*',
      write: '.*',
      read: '.*',
    });
    try {
      for (const s of SIZES) {
        await openTemplate(page, url, s, 'dlx-ttl-wait-queue&delayMs=200');
        await page.click('[data-testid=tab-broker]');
        await setBrokerUrl(page, B43.amqp);
        await page.fill('[data-testid=deploy-vhost]', vhost);
        await page.fill('[data-testid=deploy-prefix]', `wf${s.w}.`);
        await page.fill('[data-testid=broker-management-url]', '');
        await page.click('[data-testid=broker-probe]');
        await page.waitForSelector('[data-testid=broker-probe-result]', { timeout: 20_000 });
        const probeVhost = await page.locator('[data-testid=broker-probe-vhost]').innerText();
        assert(probeVhost.includes(vhost), `the probe card says the tab's vhost: ${probeVhost}`);
        const placeholder = (await page.getAttribute('[data-testid=broker-management-url]', 'placeholder')) ?? '';
        assert(
          placeholder.includes('15673') && !placeholder.includes('15672'),
          `the management field says what the probe found: ${placeholder}`,
        );
        await shot(`${s.w}-probed`);
        await page.click('[data-testid=broker-plan]');
        await page.waitForSelector('[data-testid=plan-diff]', { timeout: 20_000 });
        await page.click('[data-testid=broker-apply]');
        await page.waitForSelector('[data-testid=deploy-result]', { timeout: 30_000 });

        // a trace whose workers always fail: the simulation bar follows, the replay ends where the broker ended
        await page.click('[data-testid=tab-trace]');
        await page.selectOption('[data-testid=trace-failure]', 'always');
        await page.fill('[data-testid=trace-count]', '3');
        await page.click('[data-testid=trace-start]');
        await traceFinished(page);
        assert(
          (await page.inputValue('[data-testid=sim-failure]')) === 'always',
          'the simulation bar shows the model the prediction ran with',
        );
        await page.waitForSelector('[data-testid=trace-comparison]', { timeout: 20_000 });
        // the replay plays to its end (never frozen midway) and ends where the broker ended: all 3 parked
        const clock = () =>
          page.evaluate(() => {
            const o = (window as unknown as { __overlay?: { player: { p: number; endP: number; playing: boolean } } })
              .__overlay!;
            return { p: Math.round(o.player.p), end: Math.round(o.player.endP), playing: o.player.playing };
          });
        // the replay plays on the broker's clock: at 1x it ends with the broker (a story of ~40 hops a message played ~50 s)
        await waitFor(
          'the replay at its end',
          async () => {
            const c = await clock();
            return c.p >= c.end && !c.playing;
          },
          30_000,
        );
        const ends = await liveEnds(page);
        assert(
          ends.length === 3 && ends.every((e) => e === 'parked@queue:orders.parking'),
          `every live message ends parked, as on the broker: ${ends.join(', ')}`,
        );
        const parked = await waitFor(
          "the broker's count of the parking queue",
          async () => {
            const q = (await mgmt(
              B43.mgmt,
              'GET',
              `/api/queues/${encodeURIComponent(vhost)}/wf${s.w}.orders.parking`,
            )) as { messages?: number };
            return q.messages === 3 ? q.messages : undefined;
          },
          20_000,
        );
        assert(parked === 3, 'the broker holds the 3 in the parking queue');
        await page.waitForTimeout(300);
        await shot(`${s.w}-trace-end`);
        await page.click('[data-testid=tab-timeline]');
        // each message's predicted lane right above its live one
        const order = await page
          .locator('[data-testid=timeline-lane]')
          .evaluateAll((ls) => ls.map((l) => `${l.getAttribute('data-source')}:${l.getAttribute('data-msg')}`));
        const pairs = [0, 2, 4].map((i): [string, string] => [order[i] ?? '', order[i + 1] ?? '']);
        assert(
          order.length === 6 && pairs.every(([a, b]) => a.startsWith('sim:') && b === `live:${a.slice(4)}`),
          `lanes paired per message: ${order.join(' ')}`,
        );
        await shot(`${s.w}-trace-lanes`);
        await page.click('[data-testid=tab-trace]');

        // an edit makes the trace an earlier version's; the undo back to the traced design makes it current again
        await page.click('[data-testid=cmd-fitView]');
        await page.click('[data-testid=node-queue][data-name*="wait"] >> nth=0');
        await page.click('[data-testid=tab-inspect]');
        await page.fill('[data-testid=field-ttl]', '900');
        await page.keyboard.press('Tab');
        await waitFor(
          'the trace marked stale',
          async () => (await page.locator('[data-testid=trace-panel] [data-testid=stale-note]').count()) > 0,
        );
        await page.click('[data-testid=cmd-undo]');
        await waitFor(
          'the trace current again',
          async () => (await page.locator('[data-testid=trace-panel] [data-testid=stale-note]').count()) === 0,
        );
        assert(
          (await page.locator('[data-testid=trace-comparison]').count()) === 1,
          'the comparison shown again, current',
        );

        // teardown: nothing to apply, nothing to trace
        await page.click('[data-testid=tab-broker]');
        await tearDown(page);
        assert(await page.isDisabled('[data-testid=broker-apply]'), 'Apply is disabled after teardown');
        await page.click('[data-testid=tab-trace]');
        assert(await page.isDisabled('[data-testid=trace-start]'), 'Start live trace is disabled after teardown');
        assert((await page.locator('[data-testid=trace-torn-down]').count()) === 1, 'the trace panel says why');
        await shot(`${s.w}-torn-down`);
        // every connection the app opened for this vhost (probe, apply, trace, teardown) is closed once its job is done
        // (the management API lists a new connection within its 5 s stats interval: none is accepted only after 6 s)
        let left: string[] = [];
        const since = Date.now();
        await waitFor(
          "the app's connections to the vhost closed",
          async () => {
            const cs = (await mgmt(B43.mgmt, 'GET', `/api/vhosts/${encodeURIComponent(vhost)}/connections`)) as {
              client_properties?: { connection_name?: string };
            }[];
            left = cs
              .map((c) => c.client_properties?.connection_name ?? '(unnamed)')
              .filter((n) => n.startsWith('retry-studio'));
            return left.length === 0 && Date.now() - since > 6_000;
          },
          30_000,
        ).catch(() => assert(false, `connections left open 30 s after the teardown: ${left.join(', ')}`));
      }
    } finally {
      await mgmt(B43.mgmt, 'DELETE', `/api/vhosts/${encodeURIComponent(vhost)}`).catch(() => undefined);
    }
  },
};

export const operateScopedFlow: Flow = {
  // on 4.3: message properties shown; one message without a message-id picked, edited and re-driven (position + digest);
  // a dry run with a patch over plain-text bodies says they stay; another group folds the older dry run; another design
  // shows none of this vhost's browse, dry run or "Where messages pile up"
  name: "web-flows: operate results are the design's",
  broker: true,
  async run({ page, url, shot }) {
    for (const s of SIZES) {
      const vhost = await makeVhost(B43.mgmt);
      try {
        await openTemplate(page, url, s, 'dlx-ttl-wait-queue');
        await page.click('[data-testid=tab-broker]');
        await setBrokerUrl(page, B43.amqp);
        await page.click('[data-testid=tab-operate]');
        await page.fill('[data-testid=operate-vhost]', vhost);
        await page.click('[data-testid=operate-import]');
        await importedSummary(page);
        await page.click('[data-testid="operate-browse-shop.dlq"]');
        await waitFor(
          'the listing',
          async () => (await page.locator('[data-testid=dlq-message]').count()) === 6,
          20_000,
        );
        // message properties
        await page.locator('[data-testid=dlq-message] >> nth=0').locator('button').first().click();
        const props = await page.locator('[data-testid=dlq-properties]').first().innerText();
        assert(
          /content-type/.test(props) && /message-id\s+\(none\)/.test(props) && /delivery mode/.test(props),
          `properties shown: ${props}`,
        );
        await shot(`${s.w}-properties`);

        // a group dry run with a JSON patch over plain-text bodies: they stay, and why
        await page.locator('[data-testid=dlq-group]').first().click();
        await page.check('[data-testid=redrive-edit-toggle]');
        await page.fill('[data-testid=redrive-edit-body]', '[{"op":"replace","path":"/amount","value":12}]');
        await page.click('[data-testid=redrive-dry-run]');
        await waitFor(
          'the dry run',
          async () => (await page.locator('[data-testid=redrive-plan]').count()) > 0,
          20_000,
        );
        const plan = await page.locator('[data-testid=redrive-plan]').innerText();
        assert(
          plan.includes('0 would move') && /not JSON, so the patch cannot apply/.test(plan) && /stay: #\d/.test(plan),
          `the patch does not apply to plain text: ${plan}`,
        );
        await shot(`${s.w}-patch-dry-run`);
        // another selection: the older dry run folded and marked
        await page.locator('[data-testid=dlq-group] >> nth=1').click();
        await waitFor(
          'the earlier dry run folded',
          async () => (await page.locator('[data-testid=result-earlier]').count()) === 1,
        );

        // one message without a message-id: picked, edited, re-driven by position and digest
        await page.uncheck('[data-testid=redrive-edit-toggle]');
        await page.locator('[data-testid=dlq-group] >> nth=1').click();
        const edit = page.locator('[data-testid=dlq-edit-message]').first();
        assert(await edit.isEnabled(), 'a message without a message-id can be picked');
        await edit.click();
        await page.fill('[data-testid=redrive-edit-body]', '{"order":0,"fixed":true}');
        await page.click('[data-testid=redrive-dry-run]');
        await waitFor(
          'the one-message dry run',
          async () => {
            if (await page.locator('[data-testid=dlq-error]').count())
              throw new Error(await page.locator('[data-testid=dlq-error]').innerText());
            const text = await page
              .locator('[data-testid=redrive-plan]')
              .innerText()
              .catch(() => '');
            if (/Dry run: [02-9]/.test(text)) throw new Error(`dry run: ${text}`);
            return /1 would move/.test(text);
          },
          20_000,
        );
        await page.click('[data-testid=redrive-start]');
        await waitFor(
          'the one message re-driven',
          async () => (await page.locator('[data-testid=redrive-status]').getAttribute('data-status')) === 'done',
          30_000,
        );
        assert(
          (await page.locator('[data-testid=redrive-status]').getAttribute('data-moved')) === '1',
          'exactly one message moved',
        );
        await waitFor(
          '5 left in the DLQ',
          async () =>
            (
              (await mgmt(B43.mgmt, 'GET', `/api/queues/${encodeURIComponent(vhost)}/shop.dlq`)) as {
                messages?: number;
              }
            ).messages === 5,
          20_000,
        );
        await shot(`${s.w}-one-redriven`);

        // another design: none of this vhost's results
        await page.click('[data-testid=open-gallery]');
        await page.locator('[data-testid=template-use]').first().click();
        await page.waitForSelector('.react-flow__node');
        await page.click('[data-testid=tab-deadLetters]');
        await page.click('[data-testid=tab-operate]');
        for (const gone of ['dlq-message', 'redrive-plan', 'redrive-status', 'redrive-edit', 'result-earlier'])
          assert(
            (await page.locator(`[data-testid=${gone}]`).count()) === 0,
            `${gone} of the other design is not shown`,
          );
        assert(
          !(await page.locator('[data-testid=operate-panel]').innerText()).includes('Where messages pile up'),
          'no pile-up of the other design',
        );
        await shot(`${s.w}-other-design`);
      } finally {
        await mgmt(B43.mgmt, 'DELETE', `/api/vhosts/${encodeURIComponent(vhost)}`).catch(() => undefined);
      }
    }
  },
};

export const webFlows: Flow[] = [multiVhostImportFlow, brokerWalkFlow, upgradeCompleteFlow, operateScopedFlow];
