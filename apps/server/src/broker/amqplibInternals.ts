/**
 * amqplib's own frame codec (`lib/defs.js`, `lib/codec.js`), which its package exports do not
 * name: loaded by path next to its entry point, so the wire helpers (rawDeliveries.ts,
 * publishFrames.ts) decode and encode exactly as amqplib does.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Options } from 'amqplib';

const require = createRequire(import.meta.url);
const root = dirname(require.resolve('amqplib'));

export const amqpDefs = require(join(root, 'lib', 'defs.js')) as {
  decode: (id: number, buf: Buffer) => unknown;
  encodeProperties: (id: number, channel: number, size: number, fields: Options.Publish) => Buffer;
  BasicProperties: number;
  BasicDeliver: number;
  BasicPublish: number;
  BasicAck: number;
  encodeMethod: (id: number, channel: number, fields: Record<string, unknown>) => Buffer;
};

export const amqpCodec = require(join(root, 'lib', 'codec.js')) as {
  encodeTable: (buf: Buffer, val: Record<string, unknown>, offset: number) => number;
};
