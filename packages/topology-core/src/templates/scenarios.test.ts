/**
 * Template scenarios recorded on a real RabbitMQ 3.10.8 (`pnpm conformance --target broker
 * --record`): the simulator must reproduce each, and each file must still be what the template
 * generates today (otherwise re-record it).
 */
import { describe, expect, it } from 'vitest';
import type { Scenario } from '../scenario/types.js';
import { simulateScenario } from '../scenario/runScenario.js';
import { TEMPLATE_SCENARIOS, NOT_RECORDABLE } from './scenarioCatalog.js';
import { buildTemplate, listTemplates } from './registry.js';
import { templateToScenario } from './toScenario.js';
import { compilePortable } from '../io/portable.js';

declare global {
  interface ImportMeta {
    glob<T>(pattern: string, opts: { eager: true; import: 'default' }): Record<string, T>;
  }
}
const files = import.meta.glob<Scenario>('./scenarios/*.json', { eager: true, import: 'default' });
const byName = new Map(Object.values(files).map((s) => [s.name, s]));

describe('template scenarios recorded on RabbitMQ 3.10.8', () => {
  it('every stock-3.10 template has a recorded scenario or a stated reason', () => {
    for (const t of listTemplates().filter((x) => x.runsOnStock310))
      expect(TEMPLATE_SCENARIOS.some((s) => s.template === t.id) || t.id in NOT_RECORDABLE, t.id).toBe(true);
    for (const id of ['delayed-exchange', 'dlx-delayed-requeue'])
      expect(TEMPLATE_SCENARIOS.some((s) => s.template === id && s.portable)).toBe(true);
  });

  it.each(TEMPLATE_SCENARIOS.map((s) => [s.name, s] as const))(
    '%s: recorded, matches the simulator, and is current',
    (name, spec) => {
      const file = byName.get(name);
      expect(file, `${name}.json missing`).toBeDefined();
      expect(file!.recorded_on).toMatch(/^RabbitMQ 3\.10\.8/);
      expect(file!.expect).toBeDefined();
      const run = simulateScenario(file!);
      expect(run.diff).toEqual([]);
      expect(run.match).toBe(true);
      const b = buildTemplate(spec.template, spec.params);
      if (!b.ok) throw new Error(name);
      let built = b.template;
      if (spec.portable) {
        const p = compilePortable(built.design);
        if (!p.ok) throw new Error(name);
        built = { ...built, design: p.design, requires: [] };
      }
      const regenerated = templateToScenario(built, name);
      if (!regenerated.ok) throw new Error(regenerated.reason);
      const { expect: _e, recorded_on: _r, ...recorded } = file!;
      expect(recorded).toEqual(JSON.parse(JSON.stringify(regenerated.scenario)));
    },
  );
});
