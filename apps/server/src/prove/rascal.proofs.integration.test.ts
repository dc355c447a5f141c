/**
 * Rascal 21 runs the configuration as import-app evaluated it, the handler passing ackOrNack the
 * recovery read. The library's advanced example is not run here: its forwards wait a minute each,
 * ten times (its 2 s shape is written-forward-delay-config.js).
 */
import { describeProofs } from './testing/proofCases.js';

describeProofs('rascal', [
  { file: 'rascal/simple-config.json', what: 'defaults: no recovery, ackOrNack(err) nacks' },
  { file: 'rascal/written-republish-config.json', what: 'republish with defer, then nack to a DLQ' },
  { file: 'rascal/written-forward-delay-config.js', what: 'forward through a TTL delay queue (back-off)' },
  { file: 'rascal/written-nack-requeue-config.json', what: 'a trap: nack with requeue, the stub counter' },
]);
