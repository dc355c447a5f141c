import { describe, expect, it } from 'vitest';
import { retryGroupsDefinitions } from '@retry-studio/topology-core/testing/big';
import type { Design } from '@retry-studio/topology-core/model';
import { clusterNodes } from '@retry-studio/topology-core/operate';
import { readDocument } from './readDocument';
import { prepareDocuments, type ImportProgress } from './prepareImport';

const read = async (text: string) => {
  const r = await readDocument(text, 'big.json');
  if (!('file' in r)) throw new Error(r.errors.join('; '));
  return r.file;
};

/** width / height of the laid-out nodes' box */
const aspectOf = (d: Design) => {
  const ps = Object.values(d.layout ?? {});
  const w = Math.max(...ps.map((p) => p.x)) - Math.min(...ps.map((p) => p.x)) + 190;
  const h = Math.max(...ps.map((p) => p.y)) - Math.min(...ps.map((p) => p.y)) + 76;
  return w / h;
};

describe('an import prepared for the canvas (the import worker runs this)', () => {
  it('scaffolds and lays out a definitions file, saying each step', async () => {
    const file = await read(retryGroupsDefinitions(100));
    const steps: ImportProgress[] = [];
    const [p] = await prepareDocuments(file.docs, { width: 1000, height: 500 }, (s) => steps.push(s));
    expect(steps.map((s) => s.step)).toEqual(['scaffolding', 'laying out']);
    expect(steps[1]!.nodes).toBe(
      p!.design.topology.queues.length + 5 + p!.design.consumers.length + p!.design.publishers.length,
    );
    expect(p!.scaffolded).toEqual({ publishers: p!.design.publishers.length, workers: p!.design.consumers.length });
    expect(p!.scaffolded!.workers).toBeGreaterThan(0);
    expect(Object.keys(p!.design.layout ?? {}).length).toBe(steps[1]!.nodes);
  });

  it('aims the layout at the shape of the canvas it opens in', async () => {
    const file = await read(retryGroupsDefinitions(100));
    const [wide] = await prepareDocuments(file.docs, { width: 1600, height: 400 }, () => undefined);
    const [tall] = await prepareDocuments(file.docs, { width: 500, height: 1000 }, () => undefined);
    expect(aspectOf(wide!.design)).toBeGreaterThan(2.5);
    expect(aspectOf(tall!.design)).toBeLessThan(1);
  });

  it('groups a design the canvas opens as its overview, and only such a design', async () => {
    const [big] = await prepareDocuments((await read(retryGroupsDefinitions(20))).docs, undefined, () => undefined);
    expect(big!.clusters).toEqual(clusterNodes(big!.design));
    expect(big!.clusters!.length).toBeGreaterThan(0);
    const [small] = await prepareDocuments((await read(retryGroupsDefinitions(2))).docs, undefined, () => undefined);
    expect(small!.clusters).toBeUndefined();
  });
});
