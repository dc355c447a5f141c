// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { AmqpTable, QueueDef } from '@retry-studio/topology-core/model';
import { FlowMapper } from './designToFlow';
import { dlxTtlRetry } from '../fixtures/designs';
import { nameOnScreenPx } from './faceFit';
import { faceName, faceNameSizes, readableZoom, READABLE_NAME_PX } from './readableZoom';

/** rabbitmq-case9a's longest names (72 characters), as queues of a design */
const LONG = 'langohr.tests2.queues.client-named.durable.non-exclusive.non-auto-deleted';

const nodesWith = (...names: string[]) => nodesOf(...names.map((name) => ({ name, durable: true, arguments: {} })));

const nodesOf = (...added: QueueDef[]) => {
  const d = dlxTtlRetry();
  return new FlowMapper().nodesOf({ ...d, topology: { ...d.topology, queues: [...d.topology.queues, ...added] } });
};

const smallest = (nodes: ReturnType<typeof nodesWith>, zoom: number) =>
  Math.min(...nodes.map((n) => nameOnScreenPx(faceNameSizes(n.data), zoom)));

describe('the zoom at which every name reads', () => {
  it('keeps the fitted zoom where the names already read there', () => {
    const nodes = nodesWith();
    expect(smallest(nodes, 0.45)).toBeGreaterThanOrEqual(READABLE_NAME_PX);
    expect(readableZoom(nodes, 0.45)).toBe(0.45);
  });

  it('goes as much closer as a long name needs, and no closer', () => {
    const nodes = nodesWith(LONG);
    expect(smallest(nodes, 0.45)).toBeLessThan(READABLE_NAME_PX);
    const z = readableZoom(nodes, 0.45);
    expect(z).toBeGreaterThan(0.45);
    expect(smallest(nodes, z)).toBeGreaterThanOrEqual(READABLE_NAME_PX);
    // 2% further out (one step) it does not read yet
    expect(smallest(nodes, z / 1.02)).toBeLessThan(READABLE_NAME_PX + 0.02);
  });

  it('keeps the fitted zoom where no zoom makes a name read (a word wider than its face is drawn smaller, never broken)', () => {
    const nodes = nodesWith('x'.repeat(120));
    expect(readableZoom(nodes, 0.45)).toBe(0.45);
  });

  it('sizes a queue with its defining settings as its face does (a row kept for them)', () => {
    const name = 'com.example.payments.settlement.nightly.batch.wait';
    const [ttl, plain] = ([{ 'x-message-ttl': 5000 }, {}] as AmqpTable[]).map(
      (args) => nodesOf({ name, durable: true, arguments: args }).find((n) => n.id === `queue:${name}`)!.data,
    );
    expect(faceName(ttl!)).toBe(name);
    // the same name, smaller where its face keeps a row for the TTL
    expect(faceNameSizes(ttl!).a).toBeLessThan(faceNameSizes(plain!).a);
  });
});
