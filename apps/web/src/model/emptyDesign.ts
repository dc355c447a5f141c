import { DESIGN_FORMAT, DESIGN_VERSION, type Design } from '@retry-studio/topology-core/model';

export function emptyDesign(name = 'Untitled design'): Design {
  return {
    format: DESIGN_FORMAT,
    version: DESIGN_VERSION,
    name,
    topology: { exchanges: [], queues: [], bindings: [] },
    consumers: [],
    publishers: [],
    layout: {},
  };
}
