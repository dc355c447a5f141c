/**
 * prove-app's Rascal runner: a Rascal broker from the user's configuration (its vhost's connection
 * pointed at the throwaway vhost), one subscription whose handler fails as told and recovers with
 * the strategy the application passes to ackOrNack (from import-app's reading; Rascal's default
 * when none is read).
 */
import { Buffer } from 'node:buffer';
import { createRequire } from 'node:module';
import process from 'node:process';
import rascal from 'rascal';
import { emit, failer, onStop, plain, readSpec } from './events.mjs';

const spec = readSpec();
const { job } = spec;
const version = createRequire(import.meta.url)('rascal/package.json').version;
emit('-', 'runner', { rascalVersion: version });

/**
 * The configuration with the subscription's vhost alone, its connection pointed at the throwaway
 * vhost; no vhost is asserted or checked through the management API (the harness made the vhost).
 */
function pointed(config) {
  const vhosts = {};
  for (const [name, v] of Object.entries(config.vhosts ?? {}))
    if (name === spec.vhostKey)
      vhosts[name] = { ...v, connection: { url: spec.url }, connections: undefined, assert: false, check: false };
  return { ...config, vhosts };
}

const decide = failer(spec.failFirst);
let broker;
try {
  broker = await rascal.BrokerAsPromised.create(rascal.withDefaultConfig(pointed(spec.config)));
  broker.on('error', (err) => emit(job, 'log', { message: String(err) }));
  const sub = await broker.subscribe(spec.subscription);
  sub
    .on('message', (message, content, ackOrNack) => {
      const body = Buffer.isBuffer(content)
        ? content.toString()
        : typeof content === 'string'
          ? content
          : JSON.stringify(content);
      const { n, fail } = decide(body);
      emit(job, 'attempt', {
        t: Date.now(),
        queue: spec.queue,
        body,
        deliveryTag: message.fields.deliveryTag,
        redelivered: message.fields.redelivered,
        headers: plain(message.properties.headers),
        xDeath: plain(message.properties.headers?.['x-death']),
        failed: fail,
      });
      if (!fail) return ackOrNack();
      const err = new Error(`prove-app: the handler fails attempt ${n} as told`);
      return spec.recovery === undefined ? ackOrNack(err) : ackOrNack(err, spec.recovery);
    })
    .on('error', (err) => emit(job, 'log', { message: String(err) }));
  emit(job, 'started');
} catch (err) {
  emit(job, 'error', { message: String(err?.stack ? err.message : err) });
  process.exit(1);
}
onStop(job, () => broker.shutdown());
