import type { Page } from 'playwright-core';
import { assert, mouseDrag, waitFor, type Flow } from '../lib/harness.js';

const count = (page: Page, sel: string) => page.locator(sel).count();

async function dropFromPalette(page: Page, item: string, x: number, y: number): Promise<void> {
  const canvas = await page.locator('[data-testid=canvas]').boundingBox();
  assert(canvas, 'no canvas');
  await page.dragAndDrop(`[data-testid=${item}]`, '[data-testid=canvas] .react-flow__pane', {
    targetPosition: { x, y },
  });
}

export const designByDragging: Flow = {
  name: 'design by dragging',
  async run({ page, url, shot }) {
    await page.goto(url);
    await page.waitForSelector('[data-testid=template-gallery]');
    await page.click('[data-testid=gallery-blank]');
    await page.waitForSelector('[data-testid=canvas]');
    await dropFromPalette(page, 'palette-publisher', 60, 120);
    await dropFromPalette(page, 'palette-exchange-direct', 300, 120);
    await dropFromPalette(page, 'palette-queue-classic', 540, 120);
    await dropFromPalette(page, 'palette-consumer', 540, 300);
    await waitFor('4 nodes', async () => (await count(page, '.react-flow__node')) === 4);
    assert((await count(page, '[data-testid=node-exchange]')) === 1, 'one exchange');
    // connect handles: the kinds of the ends decide the edge
    await mouseDrag(
      page,
      '[data-testid=node-publisher] .react-flow__handle-right',
      '[data-testid=node-exchange] .react-flow__handle-left',
    );
    await mouseDrag(
      page,
      '[data-testid=node-exchange] .react-flow__handle-right',
      '[data-testid=node-queue] .react-flow__handle-left',
    );
    await mouseDrag(
      page,
      '[data-testid=node-queue] .react-flow__handle-right',
      '[data-testid=node-consumer] .react-flow__handle-left',
    );
    await waitFor('3 edges', async () => (await count(page, '.react-flow__edge')) === 3);
    assert((await count(page, '[data-testid=edge-label-binding]')) === 1, 'a binding edge with its key label');
    // the inspector validates as you type, with the core's messages
    await page.click('[data-testid=node-queue]');
    await page.waitForSelector('[data-testid=inspector-queue]');
    await page.fill('[data-testid=field-ttl]', '-5');
    await waitFor('a TTL error', async () => (await count(page, '[data-testid=field-error]')) > 0);
    const msg = await page.locator('[data-testid=field-error]').first().innerText();
    assert(/ttl|integer|0/i.test(msg), `TTL error says what is wrong: ${msg}`);
    await shot('invalid-ttl');
    await page.fill('[data-testid=field-ttl]', '5000');
    await waitFor('no error', async () => (await count(page, '[data-testid=field-error]')) === 0);
    await waitFor('a TTL chip', async () =>
      (await page.locator('[data-testid=node-queue]').innerText()).includes('TTL 5s'),
    );
    // undo with the keyboard (outside the field), redo with the toolbar
    await page.click('[data-testid=canvas] .react-flow__pane', { position: { x: 10, y: 10 } });
    await page.keyboard.press('Control+z');
    await waitFor(
      'undo removes the TTL',
      async () => !(await page.locator('[data-testid=node-queue]').innerText()).includes('TTL'),
    );
    await page.click('[data-testid=cmd-redo]');
    await waitFor('redo restores it', async () =>
      (await page.locator('[data-testid=node-queue]').innerText()).includes('TTL 5s'),
    );
    // duplicate and delete through shortcuts
    await page.click('[data-testid=node-exchange]');
    await page.keyboard.press('Control+d');
    await waitFor('5 nodes after duplicate', async () => (await count(page, '.react-flow__node')) === 5);
    await page.keyboard.press('Delete');
    await waitFor('4 nodes after delete', async () => (await count(page, '.react-flow__node')) === 4);
    // auto-layout, then the design survives a reload
    await page.click('[data-testid=cmd-autoLayout]');
    await page.waitForTimeout(600);
    await shot('designed');
    await page.reload();
    await waitFor('design restored after reload', async () => (await count(page, '.react-flow__node')) === 4);
    await waitFor('edges restored after reload', async () => (await count(page, '.react-flow__edge')) === 3);
    // the opening view has the whole design in it: no minimap until the view is moved
    assert((await count(page, '.react-flow__minimap')) === 0, 'no minimap at the opening view');
    const c = (await page.locator('[data-testid=canvas]').boundingBox())!;
    await page.mouse.move(c.x + 20, c.y + c.height - 30);
    await page.mouse.down();
    await page.mouse.move(c.x + 80, c.y + c.height - 60, { steps: 5 });
    await page.mouse.up();
    await waitFor(
      'minimap shows the nodes once the view moved',
      async () => (await count(page, '.react-flow__minimap .react-flow__minimap-node')) === 4,
    );
  },
};

export const templateFlow: Flow = {
  name: 'template gallery and ?template= link',
  async run({ page, url, shot }) {
    await page.goto(url);
    await page.waitForSelector('[data-testid=template-card]');
    const cards = await count(page, '[data-testid=template-card]');
    assert(cards >= 17, `every template listed (${cards})`);
    await shot('gallery');
    const card = page.locator('[data-testid=template-card][data-template=chained-ttl]');
    await card.locator('[data-testid=template-params]').click();
    await waitFor(
      'explanation',
      async () => (await card.locator('[data-testid=template-explanation]').innerText()).length > 40,
    );
    await card.locator('[data-testid=template-use]').click();
    await page.waitForSelector('[data-testid=canvas] .react-flow__node');
    assert(
      (await page.locator('[data-testid=design-name]').inputValue()).length > 0,
      'design named after the template',
    );
    const n1 = await count(page, '.react-flow__node');
    assert(n1 >= 5, `template drawn (${n1} nodes)`);
    // a link opens the designer with that template drawn, params included
    await page.goto(`${url}/?template=binary-delay-levels`);
    await page.waitForSelector('[data-testid=canvas] .react-flow__node');
    const n2 = await count(page, '.react-flow__node');
    assert(n2 >= 5, `linked template drawn (${n2} nodes)`);
    await page.goto(`${url}/?template=no-such-template`);
    await page.waitForSelector('[data-testid=template-gallery]');
    await waitFor('an error names the template', async () =>
      (await page.locator('[data-testid=toast]').innerText()).includes('no-such-template'),
    );
  },
};

export const exportFlow: Flow = {
  name: 'export and import',
  async run({ page, url, shot }) {
    await page.goto(`${url}/?template=dlx-ttl-wait-queue`);
    await page.waitForSelector('.react-flow__node');
    await page.click('[data-testid=tab-export]');
    await page.waitForSelector('[data-testid=export-text]');
    assert(
      (await page.locator('[data-testid=export-text]').innerText()).includes('"retry-studio/design"'),
      'design JSON shown',
    );
    await page.click('[data-testid=export-format-definitions]');
    const defs = await page.locator('[data-testid=export-text]').innerText();
    const parsed = JSON.parse(defs) as { queues: unknown[]; exchanges: unknown[] };
    assert(parsed.queues.length >= 2 && parsed.exchanges.length >= 1, 'definitions JSON with queues and exchanges');
    await page.click('[data-testid=export-copy]');
    await waitFor('copied', async () =>
      (await page.locator('[data-testid=export-copy]').innerText()).includes('Copied'),
    );
    for (const f of ['rabbitmqadmin', 'amqplib', 'rascal']) {
      await page.click(`[data-testid=export-format-${f}]`);
      const present = await page.locator('[data-testid=export-text]').count();
      if (present)
        assert((await page.locator('[data-testid=export-text]').innerText()).length > 20, `${f} export has content`);
    }
    await shot('export');
    // import the definitions back: a design with the same queues, laid out
    await page.fill('[data-testid=import-text]', defs);
    await page.click('[data-testid=import-apply]');
    await waitFor(
      'imported queues drawn',
      async () => (await count(page, '[data-testid=node-queue]')) === parsed.queues.length,
    );
    // bad input gets a field-level error, not a stack trace
    await page.fill(
      '[data-testid=import-text]',
      '{"format":"retry-studio/design","version":1,"name":"x","topology":{"exchanges":[],"queues":[{"name":"q","arguments":{"x-message-ttl":-1}}],"bindings":[]},"consumers":[],"publishers":[]}',
    );
    await page.click('[data-testid=import-apply]');
    // named by its queue, not by a path into the JSON (topology.queues[0]...)
    await waitFor('field error', async () =>
      (await page.locator('[data-testid=import-error]').first().innerText()).startsWith('q: x-message-ttl'),
    );
  },
};

export const lintFlow: Flow = {
  name: 'lint panel marks nodes',
  async run({ page, url, shot }) {
    await page.goto(`${url}/?template=requeue-once`);
    await page.waitForSelector('.react-flow__node');
    // a dead-letter routing key without a DLX: a known trap
    await page.click('[data-testid=node-queue] >> nth=0');
    await page.fill('[data-testid=field-dlrk]', 'parked');
    await page.click('[data-testid=tab-lint]');
    await waitFor('findings', async () => (await count(page, '[data-testid=lint-finding]')) > 0);
    const rules = await page
      .locator('[data-testid=lint-finding]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-rule')));
    assert(rules.includes('dl-routing-key-without-dlx'), `rule found (${rules.join(', ')})`);
    assert((await count(page, '[data-testid=lint-marker]')) > 0, 'nodes carry lint markers');
    await page.locator('[data-testid=lint-finding][data-rule=dl-routing-key-without-dlx]').click();
    await waitFor('clicking selects the node', async () => (await count(page, '.react-flow__node.selected')) > 0);
    await shot('lint');
  },
};

export const keyboardFlow: Flow = {
  name: 'keyboard reachable, main regions present',
  async run({ page, url, shot }) {
    await page.goto(url);
    await page.waitForSelector('[data-testid=template-gallery]');
    // the gallery's first control is reachable with Tab
    await page.keyboard.press('Tab');
    await page.click('[data-testid=gallery-blank]');
    // (the minimap shows once the view is moved: the flow 'design by dragging' checks it)
    for (const id of ['palette', 'toolbar', 'canvas', 'side-panel', 'bottom-panel', 'sim-bar']) {
      assert((await page.locator(`[data-testid=${id}]`).count()) === 1, `region ${id} present`);
    }
    // add nodes from the palette with the keyboard only
    await page.focus('[data-testid=palette-queue-classic]');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await waitFor('two nodes added by keyboard', async () => (await page.locator('.react-flow__node').count()) === 2);
    assert((await page.locator('[data-testid=node-queue]').count()) === 2, 'a classic and a quorum queue');
    // tab order reaches the toolbar, the sim controls and the side tabs
    await page.focus('[data-testid=design-name]');
    const seen = new Set<string>();
    for (let i = 0; i < 60; i++) {
      await page.keyboard.press('Tab');
      const id = await page.evaluate('document.activeElement && document.activeElement.getAttribute("data-testid")');
      if (typeof id === 'string') seen.add(id);
    }
    for (const id of ['cmd-autoLayout', 'cmd-fitView', 'open-gallery', 'sim-run', 'tab-lint', 'palette-publisher'])
      assert(seen.has(id), `${id} reachable by Tab (saw ${[...seen].join(', ')})`);
    // shortcuts listed from the command registry
    await page.click('[data-testid=shortcuts-toggle]');
    const keys = await page.locator('[data-testid=shortcuts]').innerText();
    assert(keys.includes('Ctrl+Z') && keys.includes('Shift+L'), `shortcut list: ${keys}`);
    await shot('keys');
    // the Keys popover goes with Escape, and with a click outside it (on the canvas too, whose pan handler stops the click)
    await page.keyboard.press('Escape');
    await waitFor(
      'Escape closes the Keys popover',
      async () => (await page.locator('[data-testid=shortcuts]').count()) === 0,
    );
    await page.click('[data-testid=shortcuts-toggle]');
    await page.waitForSelector('[data-testid=shortcuts]');
    const pane = (await page.locator('.react-flow__pane').boundingBox())!;
    await page.mouse.click(pane.x + pane.width / 2, pane.y + pane.height - 15);
    await waitFor(
      'a click on the canvas closes the Keys popover',
      async () => (await page.locator('[data-testid=shortcuts]').count()) === 0,
    );
  },
};
