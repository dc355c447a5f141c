/**
 * The size of a piece of work, estimated before it starts: the memory it will hold, the steps it
 * will take (simulator hops and their like) and the answer it will write, each split into the
 * parts that make it big. Every part names the request field and the CLI option that set it, so a
 * refusal says what to change (`load.durationMs`, `--duration`), in the server and the CLI alike.
 * One function per kind of work computes a size (rehearseSize, tuneSize, designWorkSize);
 * `checkBudget` holds it against a budget.
 */

export type WorkKind = 'rehearse' | 'tune' | 'lint' | 'simulate' | 'upgrade-check' | 'import';

/** what makes a part of the work big, named as the HTTP field and the CLI option that set it */
export interface SizeDriver {
  /** the request field (`load.durationMs`, `sampleMs`, `load.targets`, `design`) */
  readonly field: string;
  /** the CLI option (`--duration`), or the positional (`FILE`) */
  readonly option: string;
  /** what it makes, in words: "8,640,000 messages simulated one by one (a length limit on orders.q)" */
  readonly what: string;
  /** how to make it smaller, in words */
  readonly fix: string;
}

export interface SizePart {
  readonly driver: SizeDriver;
  /** how many units the driver makes (messages, samples, objects) and their name */
  readonly count: number;
  readonly unit: string;
  /** estimated peak memory, bytes */
  readonly bytes: number;
  /** estimated steps (one simulator hop is one step; see UNIT_COSTS) */
  readonly steps: number;
  /** estimated answer (JSON), bytes */
  readonly answerBytes: number;
}

export interface WorkSize {
  readonly kind: WorkKind;
  readonly bytes: number;
  readonly steps: number;
  readonly answerBytes: number;
  readonly parts: readonly SizePart[];
}

export function workSize(kind: WorkKind, parts: readonly SizePart[]): WorkSize {
  let bytes = 0;
  let steps = 0;
  let answerBytes = 0;
  for (const p of parts) {
    bytes += p.bytes;
    steps += p.steps;
    answerBytes += p.answerBytes;
  }
  return { kind, bytes, steps, answerBytes, parts };
}
