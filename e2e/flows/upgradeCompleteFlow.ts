/**
 * The upgrade check on a 3.13 export, whole: where it starts (the file's version, kept across a reload), what it
 * cites, verified on RabbitMQ 4.3, the migrated design downloaded and opened (name starts with "web-flows:").
 */
import { assert, waitFor, type Flow } from '../lib/harness.js';
import { B43, blankStart, designName, openFile, setBrokerUrl, SIZES } from '../lib/steps.js';
import { legacyExport } from './upgradeFlow.js';

export const upgradeCompleteFlow: Flow = {
  // a 3.13 file: the check starts at 3.13, cites with links, verifies on 4.3, downloads and opens the migrated design
  // (one undo back); on the migrated 4.3 design the check says it is a downgrade
  name: 'web-flows: upgrade check complete',
  broker: true,
  async run({ page, url, shot }) {
    for (const s of SIZES) {
      // nothing kept from the size before: its billing-3.13, reopened at the start, had the name waited for below
      // before this import had opened (the check then read the kept design, whose broker version was not known)
      await blankStart(page, url, s);
      await openFile(page, { name: 'billing-3.13.json', text: legacyExport() });
      await waitFor('the file open', async () => (await designName(page)) === 'billing-3.13');
      await page.click('[data-testid=tab-broker]');
      await setBrokerUrl(page, B43.amqp);
      await page.click('[data-testid=tab-lint]');
      await page.click('[data-testid=lint-view-upgrade]');
      await page.waitForSelector('[data-testid=upgrade-panel]');
      assert(
        (await page.inputValue('[data-testid=upgrade-from]')) === '3.13',
        "the source is the file's rabbitmq_version",
      );
      if (s === SIZES[0]) {
        // kept with the design: a reload starts the check there too
        await page.reload();
        await waitFor('the file open again', async () => (await designName(page)) === 'billing-3.13');
        await page.click('[data-testid=tab-lint]');
        await page.click('[data-testid=lint-view-upgrade]');
        await page.waitForSelector('[data-testid=upgrade-panel]');
        assert((await page.inputValue('[data-testid=upgrade-from]')) === '3.13', 'the source kept across a reload');
        // the broker's URL is not kept (credentials stay in memory): given again for the verify below
        await page.click('[data-testid=tab-broker]');
        await setBrokerUrl(page, B43.amqp);
        await page.click('[data-testid=tab-lint]');
        await page.click('[data-testid=lint-view-upgrade]');
        await page.waitForSelector('[data-testid=upgrade-panel]');
      }
      assert((await page.inputValue('[data-testid=upgrade-to]')) === '4.3', 'the target is the newest line');
      const kinds = await page
        .locator('[data-testid=upgrade-finding]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-kind')));
      assert(kinds.includes('refused'), `the mirroring policy is refused: ${kinds.join(', ')}`);
      const links = await page
        .locator('[data-testid=upgrade-citation]')
        .evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
      assert(
        links.length > 0 && links.every((h) => h.startsWith('https://')),
        `citations are links: ${links.join(' ')}`,
      );
      assert(
        !(await page.locator('[data-testid=upgrade-panel]').innerText()).includes('pnpm cli'),
        'no hint naming pnpm cli',
      );
      await waitFor(
        'the refused queue badged on the canvas',
        async () =>
          (await page
            .locator('.react-flow__node[data-id="queue:billing.dlq"] [data-testid=upgrade-badge][data-tone=refused]')
            .count()) === 1 && (await page.locator('[data-testid=upgrade-badge]').count()) === 1,
      );
      await page.click('[data-testid=upgrade-mark-all]');
      await waitFor(
        'Select on canvas selects the objects named',
        async () => (await page.locator('.react-flow__node.selected').count()) > 0,
      );

      // --verify-on from the Broker tab's broker
      await page.click('[data-testid=upgrade-verify-run]');
      await page.waitForSelector('[data-testid=upgrade-verify-result]', { timeout: 60_000 });
      assert(
        (await page.getAttribute('[data-testid=upgrade-verify-result]', 'data-agrees')) === 'true',
        'the broker did what the check predicted',
      );
      const verified = await page.locator('[data-testid=upgrade-verify-result]').innerText();
      assert(/RabbitMQ 4\.3\./.test(verified) && /billing-ha/.test(verified), `the broker's answers: ${verified}`);
      await page.locator('[data-testid=upgrade-verify-result]').scrollIntoViewIfNeeded();
      await shot(`${s.w}-upgrade-verified`);

      // the migrated design: downloaded in an export format, then opened (one undo back)
      await page.selectOption('[data-testid=upgrade-download-format]', 'definitions');
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.click('[data-testid=upgrade-download]'),
      ]);
      assert(
        download.suggestedFilename().endsWith('.definitions.json') && download.suggestedFilename().includes('4-3'),
        `downloaded: ${download.suggestedFilename()}`,
      );
      await page.click('[data-testid=upgrade-open-migrated]');
      await waitFor('the migrated design open', async () => (await designName(page)) === 'billing-3.13 (for 4.3)');
      await page.click('[data-testid=tab-lint]');
      await page.click('[data-testid=lint-view-upgrade]');
      await page.waitForSelector('[data-testid=upgrade-downgrade]');
      await shot(`${s.w}-upgrade-downgrade`);
      await page.click('[data-testid=cmd-undo]');
      await waitFor('one undo back to the original', async () => (await designName(page)) === 'billing-3.13');
    }
  },
};
