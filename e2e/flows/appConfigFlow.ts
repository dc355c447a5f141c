/**
 * Open / Import an application's retry configuration: a Spring Boot application.yml with the
 * definitions JSON of its queues, both at once. The listener reads the work queue, the inspector
 * says where its behaviour came from (file:line and the settings), and the interaction finding
 * (retries off, failures requeued for ever) marks the consumer's node. 1280x800 and 1440x900.
 */
import { dlqDefinitions, springBootYml } from '@retry-studio/topology-core/testing/appconfig';
import { assert, waitFor, type Flow } from '../lib/harness.js';
import { blankStart, openFile, SIZES } from '../lib/steps.js';

/** retries off, failures requeued for ever: `enabled: false` on line 6 (the inspector names it) */
const APPLICATION_YML = springBootYml({ enabled: false, maxAttempts: 3 });

const DEFINITIONS = dlqDefinitions('orders');

export const appConfigFlow: Flow = {
  name: 'app-config: Open / Import an application.yml with its definitions; the consumer shows file:line; the interaction finding marks it',
  async run({ page, url, shot }) {
    for (const s of SIZES) {
      // a blank start each size: the size before left this same import open, and the waits below count its queues
      await blankStart(page, url, s);
      // a bad file first: the error names the file and line, nothing opens
      await openFile(page, { name: 'broken.yml', text: 'spring:\n  rabbitmq:\n   listener: [\n' }, 'import-app-files');
      const err = await page.locator('[data-testid=import-app-error]').innerText();
      assert(/broken\.yml:4:1: YAML syntax error/.test(err), `the error names the file and line: ${err}`);
      await openFile(
        page,
        [
          { name: 'application.yml', text: APPLICATION_YML },
          { name: 'definitions.json', text: DEFINITIONS },
        ],
        'import-app-files',
      );
      await waitFor('the imported design', async () => (await page.locator('[data-testid=node-queue]').count()) === 2);
      assert((await page.locator('[data-testid=node-consumer]').count()) === 1, 'one listener, on the work queue');
      await page.click('[data-testid=node-consumer] >> nth=0');
      const at = await page.locator('[data-testid=config-source-at]').innerText();
      assert(at === 'application.yml:6', `the inspector says where the behaviour came from: ${at}`);
      const consumerMarked = await page.locator('[data-testid=node-consumer] [data-testid=lint-marker]').count();
      assert(consumerMarked === 1, 'the finding marks the consumer node');
      await shot(`${s.w}-inspector`);
      // a renamed consumer keeps where it was read from (design.sources follows the id); the undo brings the old id back, source and all
      const id = await page.inputValue('[data-testid=field-id]');
      await page.fill('[data-testid=field-id]', `${id}-renamed`);
      await waitFor(
        'the renamed consumer selected',
        async () => (await page.locator(`.react-flow__node[data-id="consumer:${id}-renamed"]`).count()) === 1,
      );
      const renamedAt = await page.locator('[data-testid=config-source-at]').innerText();
      assert(renamedAt === 'application.yml:6', `the renamed consumer still says where it came from: ${renamedAt}`);
      await page.click('[data-testid=cmd-undo]');
      await waitFor(
        'the old id back',
        async () => (await page.locator(`.react-flow__node[data-id="consumer:${id}"]`).count()) === 1,
      );
      await page.click('[data-testid=node-consumer] >> nth=0');
      assert(
        (await page.locator('[data-testid=config-source-at]').innerText()) === 'application.yml:6',
        "after the undo, the source is the old id's again",
      );
      await page.click('[data-testid=tab-lint]');
      const rules = await page
        .locator('[data-testid=lint-finding]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-rule')));
      assert(
        rules.includes('requeue-rejected-forever') && rules.includes('framework-key-ignored'),
        `the interaction findings: ${rules.join(', ')}`,
      );
      await shot(`${s.w}-lint`);
    }
  },
};
