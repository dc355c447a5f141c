/**
 * A calibration file read and checked: every problem names its field
 * (`footprint[3].ramBytesPerMessage.value`), so `--calibration FILE` can say what is wrong.
 * Memory and disk figures are 0 or more; a ceiling is above 0 (a queue that moves nothing is not a
 * measurement).
 */
import { isPlainObject, type ValidationIssue } from '../model/validateResult.js';
import { CALIBRATION_FORMAT, QUEUE_STORAGES, type Calibration } from './format.js';

export type ReadCalibrationResult =
  | { readonly ok: true; readonly calibration: Calibration }
  | { readonly ok: false; readonly issues: readonly ValidationIssue[] };

type Obj = { readonly [k: string]: unknown };
type Report = (path: string, code: string, message: string) => void;

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

function figure(v: unknown, path: string, report: Report, positive: boolean): void {
  if (!isPlainObject(v)) return report(path, 'figure-shape', `${path} must be an object {value, min, max, runs}`);
  for (const k of ['value', 'min', 'max'] as const) {
    const x = v[k];
    if (!isNum(x)) report(`${path}.${k}`, 'figure-number', `${path}.${k} must be a number (got ${JSON.stringify(x)})`);
    else if (positive && x <= 0)
      report(
        `${path}.${k}`,
        'ceiling-zero',
        `${path}.${k} must be above 0 per second (got ${x}): a ceiling of 0 moves nothing`,
      );
    else if (!positive && x < 0)
      report(`${path}.${k}`, 'figure-negative', `${path}.${k} must be 0 or more bytes (got ${x})`);
  }
  if (isNum(v.min) && isNum(v.max) && isNum(v.value) && !(v.min <= v.value && v.value <= v.max))
    report(path, 'figure-spread', `${path}: min ${v.min} <= value ${v.value} <= max ${v.max} does not hold`);
  if (!Number.isInteger(v.runs) || (v.runs as number) < 1)
    report(`${path}.runs`, 'figure-runs', `${path}.runs must be a whole number of 1 or more`);
}

function footprintRow(v: unknown, path: string, report: Report): void {
  if (!isPlainObject(v)) return report(path, 'row-shape', `${path} must be an object`);
  if (!QUEUE_STORAGES.includes(v.storage as never))
    report(`${path}.storage`, 'storage-unknown', `${path}.storage must be one of ${QUEUE_STORAGES.join(', ')}`);
  if (typeof v.ttl !== 'boolean') report(`${path}.ttl`, 'ttl-flag', `${path}.ttl must be true or false`);
  if (!Number.isInteger(v.bodyBytes) || (v.bodyBytes as number) < 0)
    report(`${path}.bodyBytes`, 'body-range', `${path}.bodyBytes must be a whole number of bytes, 0 or more`);
  if (!Number.isInteger(v.messages) || (v.messages as number) < 1)
    report(`${path}.messages`, 'messages-range', `${path}.messages must be a whole number of 1 or more`);
  figure(v.ramBytesPerMessage, `${path}.ramBytesPerMessage`, report, false);
  if (v.walRamBytesPerMessage !== undefined)
    figure(v.walRamBytesPerMessage, `${path}.walRamBytesPerMessage`, report, false);
  if (v.consumedBytesPerMessage !== undefined)
    figure(v.consumedBytesPerMessage, `${path}.consumedBytesPerMessage`, report, false);
  figure(v.diskBytesPerMessage, `${path}.diskBytesPerMessage`, report, false);
}

function ceilingRow(v: unknown, path: string, report: Report): void {
  if (!isPlainObject(v)) return report(path, 'row-shape', `${path} must be an object`);
  if (!QUEUE_STORAGES.includes(v.storage as never))
    report(`${path}.storage`, 'storage-unknown', `${path}.storage must be one of ${QUEUE_STORAGES.join(', ')}`);
  for (const k of ['publishPerSec', 'deliverAckPerSec', 'deadLetterPerSec', 'requeuePerSec'] as const)
    figure(v[k], `${path}.${k}`, report, true);
}

function flowRow(v: unknown, path: string, report: Report): void {
  if (!isPlainObject(v)) return report(path, 'row-shape', `${path} must be an object`);
  if (!QUEUE_STORAGES.includes(v.storage as never))
    report(`${path}.storage`, 'storage-unknown', `${path}.storage must be one of ${QUEUE_STORAGES.join(', ')}`);
  if (!Number.isInteger(v.bodyBytes) || (v.bodyBytes as number) < 0)
    report(`${path}.bodyBytes`, 'body-range', `${path}.bodyBytes must be a whole number of bytes, 0 or more`);
  if (!isNum(v.ratePerSecond) || v.ratePerSecond <= 0)
    report(`${path}.ratePerSecond`, 'rate-range', `${path}.ratePerSecond must be above 0 messages per second`);
  if (!Number.isInteger(v.messages) || (v.messages as number) < 1)
    report(`${path}.messages`, 'messages-range', `${path}.messages must be a whole number of 1 or more`);
  figure(v.ramBytesPerMessage, `${path}.ramBytesPerMessage`, report, false);
}

function delayedExchange(v: unknown, report: Report): void {
  const path = 'delayedExchange';
  if (!isPlainObject(v))
    return report(path, 'delayed-shape', `${path} must be {measured: false, reason} or {measured: true, rows}`);
  if (v.measured === false) {
    if (typeof v.reason !== 'string')
      report(`${path}.reason`, 'delayed-reason', `${path}.reason must say why it was not measured`);
    return;
  }
  if (v.measured !== true || !Array.isArray(v.rows))
    return report(path, 'delayed-shape', `${path} must be {measured: false, reason} or {measured: true, rows}`);
  v.rows.forEach((r: unknown, i: number) => {
    const p = `${path}.rows[${i}]`;
    if (!isPlainObject(r)) return report(p, 'row-shape', `${p} must be an object`);
    if (!Number.isInteger(r.bodyBytes) || (r.bodyBytes as number) < 0)
      report(`${p}.bodyBytes`, 'body-range', `${p}.bodyBytes must be a whole number of bytes, 0 or more`);
    figure(r.ramBytesPerMessage, `${p}.ramBytesPerMessage`, report, false);
    figure(r.diskBytesPerMessage, `${p}.diskBytesPerMessage`, report, false);
  });
}

/** `value` as a calibration, or every problem with it */
export function readCalibration(value: unknown): ReadCalibrationResult {
  const issues: ValidationIssue[] = [];
  const report: Report = (path, code, message) => void issues.push({ path, code, message });
  if (!isPlainObject(value))
    return {
      ok: false,
      issues: [
        {
          path: '',
          code: 'not-calibration',
          message: `not a calibration: expected a JSON object with "format": "${CALIBRATION_FORMAT}"`,
        },
      ],
    };
  if (value.format !== CALIBRATION_FORMAT)
    return {
      ok: false,
      issues: [
        {
          path: 'format',
          code: 'not-calibration',
          message: `not a calibration: "format" is ${JSON.stringify(value.format)}, expected "${CALIBRATION_FORMAT}" (pnpm calibrate writes one)`,
        },
      ],
    };
  const broker = value.broker as Obj | undefined;
  if (!isPlainObject(broker) || typeof broker.version !== 'string' || !/^\d+\.\d+/.test(broker.version))
    report('broker.version', 'broker-version', 'broker.version must be the RabbitMQ version measured, like "3.10.8"');
  if (typeof value.measuredAt !== 'string' || Number.isNaN(Date.parse(value.measuredAt)))
    report('measuredAt', 'measured-at', 'measuredAt must be the date and time of the measurement (ISO 8601)');
  const machine = value.machine as Obj | undefined;
  if (
    !isPlainObject(machine) ||
    !isNum(machine.cpus) ||
    !isNum(machine.memoryBytes) ||
    typeof machine.platform !== 'string'
  )
    report('machine', 'machine-shape', 'machine must say {cpus, memoryBytes, platform} of the machine measured on');
  const node = value.node as Obj | undefined;
  if (!isPlainObject(node))
    report('node', 'node-shape', 'node must be an object (memoryLimitBytes, idleMemoryBytes, ...)');
  else
    for (const k of ['memoryLimitBytes', 'idleMemoryBytes', 'diskFreeLimitBytes', 'walMaxBytes'])
      if (node[k] !== undefined && (!isNum(node[k]) || (node[k] as number) < 0))
        report(`node.${k}`, 'figure-negative', `node.${k} must be 0 or more bytes (got ${JSON.stringify(node[k])})`);
  if (!Array.isArray(value.footprint) || value.footprint.length === 0)
    report('footprint', 'footprint-empty', 'footprint must list at least one measured queue kind');
  else value.footprint.forEach((r: unknown, i: number) => footprintRow(r, `footprint[${i}]`, report));
  if (!Array.isArray(value.ceilings)) report('ceilings', 'ceilings-shape', 'ceilings must be a list (it may be empty)');
  else value.ceilings.forEach((r: unknown, i: number) => ceilingRow(r, `ceilings[${i}]`, report));
  if (value.flow !== undefined) {
    if (!Array.isArray(value.flow)) report('flow', 'flow-shape', 'flow must be a list when given');
    else value.flow.forEach((r: unknown, i: number) => flowRow(r, `flow[${i}]`, report));
  }
  delayedExchange(value.delayedExchange, report);
  if (issues.length > 0) return { ok: false, issues };
  return { ok: true, calibration: value as unknown as Calibration };
}
