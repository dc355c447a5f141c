/**
 * Java (and Kotlin, and C#'s) constants and simple expressions, evaluated as the JVM would: fields, static
 * finals and locals (`private final Long RETRY_INITIAL_INTERVAL = 5000L;`, `const val MAX = 5`),
 * `@Value("${retry.max:5}")` fields (from the Spring configuration given beside, else their
 * default), arithmetic, `Duration.ofSeconds(5)` / `.toMillis()`, `TimeUnit.SECONDS.toMillis(5)`,
 * `Math.min/max`, `Long.valueOf`, casts, string concatenation. What an expression used is kept, so
 * a value read through constants says which (`RETRY_MAX_ATTEMPTS = 5 (line 12)`).
 */
import type { CodeText } from './codeText.js';
import type { ConfigEntry } from './configText.js';

export type JValue =
  | { readonly kind: 'number'; readonly n: number }
  | { readonly kind: 'string'; readonly s: string }
  | { readonly kind: 'boolean'; readonly b: boolean }
  /** a java.time.Duration, in ms */
  | { readonly kind: 'duration'; readonly ms: number }
  /** a TimeUnit constant */
  | { readonly kind: 'unit'; readonly ms: number };

interface Constant {
  readonly name: string;
  readonly expr: string;
  readonly line: number;
  /** an @Value field: its placeholder */
  readonly placeholder?: string;
}

const UNIT_MS: Readonly<Record<string, number>> = {
  NANOSECONDS: 1e-6,
  MICROSECONDS: 1e-3,
  MILLISECONDS: 1,
  SECONDS: 1000,
  MINUTES: 60_000,
  HOURS: 3_600_000,
  DAYS: 86_400_000,
};
const DURATION_OF: Readonly<Record<string, number>> = {
  ofNanos: 1e-6,
  ofMillis: 1,
  ofSeconds: 1000,
  ofMinutes: 60_000,
  ofHours: 3_600_000,
  ofDays: 86_400_000,
};

const TYPE = String.raw`(?:[A-Z][\w.]*|int|long|double|float|short|byte|boolean|char|var)(?:<[^;=(){}]{0,80}>)?(?:\[\])?`;
const MAX_EXPR = 500;

export class JavaValues {
  private readonly consts = new Map<string, Constant>();

  constructor(
    code: CodeText,
    private readonly property?: (key: string) => ConfigEntry | undefined,
    /** the other files given (a constant of another class: InfrastructureConfig.QUEUE); this file's own win */
    companions: readonly CodeText[] = [],
  ) {
    this.collect(code);
    for (const c of companions) this.collect(c);
  }

  private collect(code: CodeText): void {
    const t = code.text;
    const java = new RegExp(String.raw`(?<![\w.])${TYPE}\s+([A-Za-z_]\w*)\s*=(?!=)\s*([^;{}]{1,${MAX_EXPR}});`, 'g');
    for (const m of t.matchAll(java)) this.add(m[1]!, m[2]!, code.line(m.index));
    const kotlin = new RegExp(
      String.raw`\b(?:val|var)\s+([A-Za-z_]\w*)\s*(?::\s*[\w.<>?]+)?\s*=\s*([^\n;]{1,${MAX_EXPR}})`,
      'g',
    );
    for (const m of t.matchAll(kotlin)) this.add(m[1]!, m[2]!, code.line(m.index));
    const value =
      /@Value\(\s*"([^"]{1,300})"\s*\)\s*(?:(?:private|public|protected|static|final|lateinit|var|val)\s+)*(?:[\w.<>[\]]+\s+)?([A-Za-z_]\w*)/g;
    for (const m of t.matchAll(value))
      this.consts.set(m[2]!, { name: m[2]!, expr: '', line: code.line(m.index), placeholder: m[1]! });
  }

  private add(name: string, expr: string, line: number): void {
    // the first declaration wins: a field over a later local of the same name is the common case for constants
    if (!this.consts.has(name)) this.consts.set(name, { name, expr: expr.trim(), line });
  }

  /** An expression's value and what it was read through (constants, properties), or undefined when it is not one these rules know. */
  eval(expr: string): { readonly value?: JValue; readonly via: readonly string[] } {
    const via: string[] = [];
    try {
      const p = new ExprParser(expr, (id) => this.lookup(id, via, 0));
      const value = p.parseAll();
      return value === undefined ? { via } : { value, via };
    } catch {
      return { via };
    }
  }

  number(expr: string): { readonly n?: number; readonly via: readonly string[] } {
    const r = this.eval(expr);
    const v = r.value;
    const n =
      v?.kind === 'number' ? v.n : v?.kind === 'duration' ? v.ms : v?.kind === 'string' ? Number(v.s) : undefined;
    return n !== undefined && Number.isFinite(n) ? { n, via: r.via } : { via: r.via };
  }

  string(expr: string): { readonly s?: string; readonly via: readonly string[] } {
    const r = this.eval(expr);
    return r.value?.kind === 'string' ? { s: r.value.s, via: r.via } : { via: r.via };
  }

  private lookup(id: string, via: string[], depth: number): JValue | undefined {
    const name = id.includes('.') ? id.slice(id.lastIndexOf('.') + 1) : id;
    const c = this.consts.get(name);
    if (!c || depth > 16) return undefined;
    if (c.placeholder !== undefined) return this.fromPlaceholder(c, via);
    const inner = new ExprParser(c.expr, (x) => this.lookup(x, via, depth + 1)).parseAll();
    if (inner !== undefined) via.push(`${c.name} = ${show(inner)} (line ${c.line})`);
    return inner;
  }

  /** `${key:default}`: the Spring property given beside, else the default */
  private fromPlaceholder(c: Constant, via: string[]): JValue | undefined {
    const m = /^\$\{([^:}]+)(?::([^}]*))?\}$/.exec(c.placeholder!.trim());
    if (!m) return literal(c.placeholder!);
    const e = this.property?.(m[1]!.trim());
    if (e) {
      via.push(`${c.name} = @Value("${c.placeholder}") = ${e.value} (${e.via ?? `${e.file}:${e.line}`})`);
      return literal(e.value);
    }
    if (m[2] !== undefined) {
      via.push(`${c.name} = @Value("${c.placeholder}"): its default ${m[2]} (line ${c.line})`);
      return literal(m[2]);
    }
    return undefined;
  }
}

const literal = (s: string): JValue =>
  /^-?\d+(\.\d+)?$/.test(s.trim()) ? { kind: 'number', n: Number(s) } : { kind: 'string', s };

const show = (v: JValue): string =>
  v.kind === 'number'
    ? String(v.n)
    : v.kind === 'string'
      ? JSON.stringify(v.s)
      : v.kind === 'boolean'
        ? String(v.b)
        : `${v.ms} ms`;

type Tok = { readonly t: 'num' | 'str' | 'id' | 'op'; readonly v: string };

function tokenize(s: string): Tok[] {
  const out: Tok[] = [];
  const re =
    /\s*(?:(\d[\d_]*(?:\.\d+)?(?:[eE][+-]?\d+)?)[lLdDfF]?|"((?:\\.|[^"\\])*)"|([A-Za-z_$][\w$]*(?:\s*\.\s*[A-Za-z_$][\w$]*)*)|(::|[-+*/%(),.]))/y;
  let i = 0;
  while (i < s.length) {
    if (/^\s*$/.test(s.slice(i))) break;
    re.lastIndex = i;
    const m = re.exec(s);
    if (!m) throw new Error('token');
    if (m[1] !== undefined) out.push({ t: 'num', v: m[1].replace(/_/g, '') });
    else if (m[2] !== undefined) out.push({ t: 'str', v: m[2].replace(/\\(.)/g, '$1') });
    else if (m[3] !== undefined) out.push({ t: 'id', v: m[3].replace(/\s+/g, '') });
    else out.push({ t: 'op', v: m[4]! });
    i = re.lastIndex;
  }
  return out;
}

/** + - * / % over numbers and durations, + over strings; calls the JVM's time helpers. */
class ExprParser {
  private readonly toks: Tok[];
  private i = 0;

  constructor(
    src: string,
    private readonly resolve: (id: string) => JValue | undefined,
  ) {
    this.toks = tokenize(src);
  }

  parseAll(): JValue | undefined {
    const v = this.sum();
    return this.i === this.toks.length ? v : undefined;
  }

  private peek(v: string): boolean {
    const t = this.toks[this.i];
    return t !== undefined && t.t === 'op' && t.v === v;
  }

  private sum(): JValue | undefined {
    let a = this.product();
    while (this.peek('+') || this.peek('-')) {
      const op = this.toks[this.i++]!.v;
      const b = this.product();
      a = arith(op, a, b);
    }
    return a;
  }

  private product(): JValue | undefined {
    let a = this.unary();
    while (this.peek('*') || this.peek('/') || this.peek('%')) {
      const op = this.toks[this.i++]!.v;
      a = arith(op, a, this.unary());
    }
    return a;
  }

  private unary(): JValue | undefined {
    if (this.peek('-')) {
      this.i++;
      const v = this.unary();
      return v?.kind === 'number' ? { kind: 'number', n: -v.n } : undefined;
    }
    // a cast: (long) x, (int) (a * b)
    const t = this.toks[this.i + 1];
    if (
      this.peek('(') &&
      t?.t === 'id' &&
      /^(long|int|double|float|short|Long|Integer|Double)$/.test(t.v) &&
      this.toks[this.i + 2]?.v === ')'
    ) {
      this.i += 3;
      const v = this.unary();
      return v?.kind === 'number' && /^(long|int|short|Long|Integer)$/.test(t.v)
        ? { kind: 'number', n: Math.trunc(v.n) }
        : v;
    }
    return this.postfix(this.primary());
  }

  private args(): (JValue | undefined)[] {
    const out: (JValue | undefined)[] = [];
    this.expect('(');
    while (!this.peek(')')) {
      out.push(this.sum());
      if (this.peek(',')) this.i++;
      else break;
    }
    this.expect(')');
    return out;
  }

  private expect(v: string): void {
    if (!this.peek(v)) throw new Error(`expected ${v}`);
    this.i++;
  }

  private primary(): JValue | undefined {
    const t = this.toks[this.i++];
    if (!t) throw new Error('end');
    if (t.t === 'num') return { kind: 'number', n: Number(t.v) };
    if (t.t === 'str') return { kind: 'string', s: t.v };
    if (t.t === 'op' && t.v === '(') {
      const v = this.sum();
      this.expect(')');
      return v;
    }
    if (t.t !== 'id') throw new Error('primary');
    if (this.peek('(')) return call(t.v, this.args());
    if (t.v === 'true' || t.v === 'false') return { kind: 'boolean', b: t.v === 'true' };
    const unit = /^(?:TimeUnit\.)?([A-Z]+)$/.exec(t.v);
    if (unit && UNIT_MS[unit[1]!] !== undefined && (t.v.startsWith('TimeUnit.') || !this.resolve(t.v)))
      return { kind: 'unit', ms: UNIT_MS[unit[1]!]! };
    // TimeUnit.SECONDS.toMillis(5) arrives as one dotted id followed by arguments: handled in call()
    return this.resolve(t.v);
  }

  /** `.toMillis()`, `.getSeconds()`, `.toSeconds()` on a Duration */
  private postfix(v: JValue | undefined): JValue | undefined {
    let out = v;
    while (this.peek('.')) {
      this.i++;
      const m = this.toks[this.i++];
      if (m?.t !== 'id') throw new Error('member');
      this.args();
      if (out?.kind !== 'duration') return undefined;
      out = {
        kind: 'number',
        n: m.v === 'toMillis' ? out.ms : /^(getSeconds|toSeconds)$/.test(m.v) ? Math.trunc(out.ms / 1000) : NaN,
      };
      if (Number.isNaN(out.n)) return undefined;
    }
    return out;
  }
}

function arith(op: string, a: JValue | undefined, b: JValue | undefined): JValue | undefined {
  if (!a || !b) return undefined;
  if (op === '+' && (a.kind === 'string' || b.kind === 'string')) return { kind: 'string', s: text(a) + text(b) };
  const x = a.kind === 'number' ? a.n : a.kind === 'duration' ? a.ms : undefined;
  const y = b.kind === 'number' ? b.n : b.kind === 'duration' ? b.ms : undefined;
  if (x === undefined || y === undefined) return undefined;
  const n = op === '+' ? x + y : op === '-' ? x - y : op === '*' ? x * y : op === '/' ? (y === 0 ? NaN : x / y) : x % y;
  const kind = a.kind === 'duration' || b.kind === 'duration' ? 'duration' : 'number';
  return kind === 'duration' ? { kind, ms: n } : { kind, n };
}

const text = (v: JValue): string => (v.kind === 'string' ? v.s : v.kind === 'number' ? String(v.n) : show(v));

/** A call by its dotted name: the JVM helpers these readers meet in retry settings. */
function call(name: string, args: readonly (JValue | undefined)[]): JValue | undefined {
  const num = (v: JValue | undefined): number | undefined =>
    v?.kind === 'number' ? v.n : v?.kind === 'string' && /^-?\d+(\.\d+)?$/.test(v.s) ? Number(v.s) : undefined;
  const dotted = name.split('.');
  const method = dotted[dotted.length - 1]!;
  const owner = dotted.slice(0, -1).join('.');
  if (/(^|\.)Duration$/.test(owner) && DURATION_OF[method] !== undefined) {
    const n = num(args[0]);
    return n === undefined ? undefined : { kind: 'duration', ms: n * DURATION_OF[method]! };
  }
  const unit = /(?:^|\.)([A-Z]+)$/.exec(owner)?.[1];
  if (unit && UNIT_MS[unit] !== undefined && /^to(Millis|Seconds)$/.test(method)) {
    const n = num(args[0]);
    if (n === undefined) return undefined;
    const ms = n * UNIT_MS[unit]!;
    return { kind: 'number', n: method === 'toMillis' ? Math.trunc(ms) : Math.trunc(ms / 1000) };
  }
  // C#: TimeSpan.FromSeconds(5) (MassTransit, NServiceBus)
  const span = /(?:^|\.)TimeSpan\.From(Milliseconds|Seconds|Minutes|Hours|Days)$/.exec(name)?.[1];
  if (span) {
    const n = num(args[0]);
    const unit = { Milliseconds: 1, Seconds: 1000, Minutes: 60_000, Hours: 3_600_000, Days: 86_400_000 }[
      span as 'Seconds'
    ];
    return n === undefined ? undefined : { kind: 'duration', ms: n * unit };
  }
  if (/^(Math\.)?(min|max)$/.test(name)) {
    const [a, b] = [num(args[0]), num(args[1])];
    return a === undefined || b === undefined
      ? undefined
      : { kind: 'number', n: method === 'min' ? Math.min(a, b) : Math.max(a, b) };
  }
  if (/^(Long|Integer|Double|Short)\.(valueOf|parse\w+)$/.test(name)) {
    const n = num(args[0]);
    return n === undefined ? undefined : { kind: 'number', n };
  }
  return undefined;
}
