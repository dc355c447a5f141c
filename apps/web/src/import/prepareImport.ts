/**
 * What an imported document becomes before it opens: a definitions file's assumed actors scaffolded
 * (model/scaffoldFileImport.ts) and laid out for the canvas it opens in (graph/autoLayout.ts). The
 * import worker runs it off the page, every step reporting its progress, then lints what it prepared
 * once the page has drawn it.
 */
import type { ReadDocument } from '@retry-studio/topology-core/io';
import type { Design } from '@retry-studio/topology-core/model';
import { clusterNodes, type NodeCluster } from '@retry-studio/topology-core/operate';
import { layoutDesign, type LayoutShape } from '../graph/autoLayout';
import { scaffoldFileImport } from '../model/scaffoldFileImport';
import { nodeCount } from '../model/designSize';
import { OVERVIEW_MIN_NODES } from '../canvas/overviewModel';

export type ImportStep = 'reading' | 'scaffolding' | 'laying out';

export interface ImportProgress {
  readonly step: ImportStep;
  /** the document (0-based) of how many */
  readonly doc: number;
  readonly docs: number;
  /** the nodes of the document (publishers, exchanges, queues, workers), once known */
  readonly nodes?: number;
}

export interface PreparedDesign {
  readonly design: Design;
  /** the actors the import assumed (a definitions file has none) */
  readonly scaffolded?: { readonly publishers: number; readonly workers: number };
  /** a design the canvas opens as its overview: its groups (the page's own grouping of 5,000 queues was ~30 ms of the task that drew it) */
  readonly clusters?: readonly NodeCluster[];
}

export async function prepareDocuments(
  docs: readonly ReadDocument[],
  shape: LayoutShape | undefined,
  progress: (p: ImportProgress) => void,
): Promise<PreparedDesign[]> {
  const out: PreparedDesign[] = [];
  for (const [i, doc] of docs.entries()) {
    const at = { doc: i, docs: docs.length };
    let design = doc.design;
    let scaffolded: PreparedDesign['scaffolded'];
    if (doc.kind === 'definitions') {
      progress({ step: 'scaffolding', ...at, nodes: nodeCount(design) });
      // a file has no consumers or publishers: scaffold them as a vhost import does, so Simulate runs at once
      design = scaffoldFileImport(design);
      if (design.publishers.length > 0 || design.consumers.length > 0)
        scaffolded = { publishers: design.publishers.length, workers: design.consumers.length };
    }
    // definitions carry no positions: lay them out
    if (!design.layout || Object.keys(design.layout).length === 0) {
      progress({ step: 'laying out', ...at, nodes: nodeCount(design) });
      design = { ...design, layout: await layoutDesign(design, shape) };
    }
    const clusters = nodeCount(design) >= OVERVIEW_MIN_NODES ? clusterNodes(design) : undefined;
    out.push({ design, ...(scaffolded ? { scaffolded } : {}), ...(clusters ? { clusters } : {}) });
  }
  return out;
}
