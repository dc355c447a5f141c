/**
 * The effective settings the designer shows (chips, dead-letter and alternate-exchange edges, the
 * inspector): the core's one computation (model/effectiveSettings.ts), which the simulator, lint
 * and the deploy plan read too. Cached per topology and profile: dragging a node reuses it.
 */
import {
  topologyEffectiveSettings,
  type Design,
  type EffectiveSettings,
  type TopologySettings,
} from '@retry-studio/topology-core/model';

const NONE: TopologySettings = { queues: new Map(), exchanges: new Map() };
const cache = new WeakMap<object, { profile: string | undefined; settings: TopologySettings }>();

export function designSettings(design: Design): TopologySettings {
  const hit = cache.get(design.topology);
  if (hit && hit.profile === design.profile) return hit.settings;
  let settings: TopologySettings;
  try {
    settings = topologyEffectiveSettings(design.topology, design.profile ? { profile: design.profile } : {});
  } catch {
    // a topology being typed (half-written JSON) has no settings to show yet
    settings = NONE;
  }
  cache.set(design.topology, { profile: design.profile, settings });
  return settings;
}

export const queueSettings = (design: Design, name: string): EffectiveSettings['settings'] =>
  designSettings(design).queues.get(name)?.settings ?? {};
export const exchangeSettings = (design: Design, name: string): EffectiveSettings['settings'] =>
  designSettings(design).exchanges.get(name)?.settings ?? {};
