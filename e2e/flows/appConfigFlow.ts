/**
 * Open / Import an application's retry configuration: a Spring Boot application.yml with the
 * definitions JSON of its queues, both at once. The listener reads the work queue, the inspector
 * says where its behaviour came from (file:line and the settings), and the interaction finding
 * (retries off, failures requeued for ever) marks the consumer's node. 1280x800 and 1440x900.
 */
import { assert, waitFor, type Flow } from '../lib/harness.js';

const SIZES = [
  { w: 1280, h: 800 },
  { w: 1440, h: 900 },
] as const;

const APPLICATION_YML = [
  'spring:',
  '  rabbitmq:',
  '    listener:',
  '      simple:',
  '        retry:',
  '          enabled: false',
  '          max-attempts: 3',
  '',
].join('\n');

const DEFINITIONS = JSON.stringify({
  queues: [
    {
      name: 'orders',
      vhost: '/',
      durable: true,
      auto_delete: false,
      arguments: { 'x-dead-letter-exchange': 'orders.dlx' },
    },
    { name: 'orders.dlq', vhost: '/', durable: true, auto_delete: false, arguments: {} },
  ],
  exchanges: [
    {
      name: 'orders.dlx',
      vhost: '/',
      type: 'fanout',
      durable: true,
      auto_delete: false,
      internal: false,
      arguments: {},
    },
  ],
  bindings: [
    {
      source: 'orders.dlx',
      vhost: '/',
      destination: 'orders.dlq',
      destination_type: 'queue',
      routing_key: '',
      arguments: {},
    },
  ],
});

export const appConfigFlow: Flow = {
  name: 'app-config: Open / Import an application.yml with its definitions; the consumer shows file:line; the interaction finding marks it',
  async run({ page, url, shot }) {
    for (const s of SIZES) {
      await page.setViewportSize({ width: s.w, height: s.h });
      // a blank start each size: the size before left this same import open, and the waits below count its queues
      await page.goto(url);
      await page.evaluate(() => localStorage.clear());
      await page.goto(url);
      await page.waitForSelector('[data-testid=app]');
      await page.click('[data-testid=open-toggle]');
      // a bad file first: the error names the file and line, nothing opens
      await page.setInputFiles('[data-testid=open-menu] [data-testid=import-app-files]', [
        { name: 'broken.yml', mimeType: 'text/yaml', buffer: Buffer.from('spring:\n  rabbitmq:\n   listener: [\n') },
      ]);
      const err = await page.locator('[data-testid=import-app-error]').innerText();
      assert(/broken\.yml:4:1: YAML syntax error/.test(err), `the error names the file and line: ${err}`);
      await page.setInputFiles('[data-testid=open-menu] [data-testid=import-app-files]', [
        { name: 'application.yml', mimeType: 'text/yaml', buffer: Buffer.from(APPLICATION_YML) },
        { name: 'definitions.json', mimeType: 'application/json', buffer: Buffer.from(DEFINITIONS) },
      ]);
      await waitFor('the imported design', async () => (await page.locator('[data-testid=node-queue]').count()) === 2);
      assert((await page.locator('[data-testid=node-consumer]').count()) === 1, 'one listener, on the work queue');
      await page.click('[data-testid=node-consumer] >> nth=0');
      const at = await page.locator('[data-testid=config-source-at]').innerText();
      assert(at === 'application.yml:6', `the inspector says where the behaviour came from: ${at}`);
      const consumerMarked = await page.locator('[data-testid=node-consumer] [data-testid=lint-marker]').count();
      assert(consumerMarked === 1, 'the finding marks the consumer node');
      await shot(`${s.w}-inspector`);
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
