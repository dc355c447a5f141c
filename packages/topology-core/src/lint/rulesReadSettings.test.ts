/**
 * Issue 39: no lint rule reads raw queue arguments (they read the effective settings: flow.args,
 * flow.settings, flow.config: arguments, policies and the profile's defaults as the broker resolves
 * them) and no rule asks a profile by its name (they ask ctx.semantics' capabilities). Read from the
 * rules' sources, so a new rule is held to it too.
 */
import { describe, expect, it } from 'vitest';

// topology-core has no Node types (lib ES2022, types []): the test loads node modules untyped, as conformance.test.ts does
const nodeFs = 'node:fs';
const nodeUrl = 'node:url';
const { readdirSync, readFileSync } = (await import(/* @vite-ignore */ nodeFs)) as {
  readdirSync(p: string): string[];
  readFileSync(p: string, enc: 'utf8'): string;
};
const { fileURLToPath } = (await import(/* @vite-ignore */ nodeUrl)) as { fileURLToPath(u: string): string };
const DIR = fileURLToPath((import.meta as unknown as { url: string }).url).replace(/[^/]+$/, 'rules/');
const RULE_FILES = readdirSync(DIR).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
/** declarations as written are what these rules are about: the broker compares them on redeclare, and a binding's arguments are no queue setting */
const DECLARATIONS_AS_WRITTEN = new Set(['immutableArgumentChange.ts', 'retryWithoutMax.ts']);

describe('lint rules read effective settings and profile capabilities', () => {
  it.each(RULE_FILES)('%s', (file) => {
    const src = readFileSync(DIR + file, 'utf8');
    if (!DECLARATIONS_AS_WRITTEN.has(file)) expect(src).not.toMatch(/\b(q|queue|def)\.arguments\b|\.arguments\?\.\[/);
    expect(src).not.toMatch(/ctx\.profile\s*[!=]==/);
    expect(src).not.toMatch(/queueConfig\(|queueEffectiveSettings\(/);
  });
});
