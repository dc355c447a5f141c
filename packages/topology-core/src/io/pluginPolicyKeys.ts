/**
 * Policy keys that belong to a plugin the tool does not model (federation): a broker export
 * carries them, and reading the file must not refuse it for them. They are dropped with a note;
 * a policy left with nothing else is not imported (it did nothing the tool can simulate).
 */
import type { PolicyDef } from '../model/definitions.js';
import type { ValidationIssue } from '../model/validateResult.js';

const PLUGIN_POLICY_KEYS: Readonly<Record<string, string>> = {
  'federation-upstream': 'federation',
  'federation-upstream-set': 'federation',
};

/** A policy key a plugin defines, dropped at import: lint's plugin-required says what a broker without the plugin does. */
export interface PluginPolicyKey {
  readonly policy: string;
  readonly key: string;
  /** the plugin as `rabbitmq-plugins` names it (`rabbitmq_federation`) */
  readonly plugin: string;
}

/** what a broker without the plugin does with the file (neicnordic-sda-federation-shovels.json: corpus/README.md) */
const WITHOUT_PLUGIN =
  'A broker without the plugin refuses the whole import with 400 "are not recognised policy settings" after creating the exchanges listed before it (measured on 3.10.8 and 4.3.6)';

/** `index`: the policy's place in the file, for the note's path. */
export function dropPluginPolicyKeys<T extends { readonly policy: PolicyDef; readonly index: number }>(
  policies: readonly T[],
): { kept: T[]; notes: ValidationIssue[]; dropped: PluginPolicyKey[] } {
  const notes: ValidationIssue[] = [];
  const kept: T[] = [];
  const droppedKeys: PluginPolicyKey[] = [];
  policies.forEach((entry) => {
    const p = entry.policy;
    const i = entry.index;
    const dropped = Object.keys(p.definition).filter((k) => k in PLUGIN_POLICY_KEYS);
    if (dropped.length === 0) return void kept.push(entry);
    const rest = Object.fromEntries(Object.entries(p.definition).filter(([k]) => !(k in PLUGIN_POLICY_KEYS)));
    const what = dropped.map((k) => `${k} (${PLUGIN_POLICY_KEYS[k]} plugin)`).join(', ');
    for (const key of dropped)
      droppedKeys.push({ policy: p.name, key, plugin: `rabbitmq_${PLUGIN_POLICY_KEYS[key]!}` });
    const empty = Object.keys(rest).length === 0;
    notes.push({
      path: `policies[${i}].definition`,
      code: 'not-imported',
      message: `policy "${p.name}": ${what} not modelled${empty ? '; the policy has nothing else, so it is not imported' : '; its other keys are kept'}. ${WITHOUT_PLUGIN}`,
    });
    if (!empty) kept.push({ ...entry, policy: { ...p, definition: rest } });
  });
  return { kept, notes, dropped: droppedKeys };
}
