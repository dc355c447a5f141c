/**
 * Python values as a Celery configuration writes them: literals (`3`, `2.5`, `'q'`, `True`,
 * `None`), module constants (`MAX_RETRIES = 5`), the environment (`os.environ.get('X', '3')`,
 * `os.getenv('X', 3)`, `os.environ['X']`, `env.int('X', default=3)`), `int(...)`/`float(...)`/
 * `bool(...)` around them, and + - * / arithmetic. What a value went through is kept.
 */
import type { CodeText } from './codeText.js';
import type { Environment } from './environment.js';

export type PyValue = number | string | boolean | null;

export class PythonValues {
  private readonly consts = new Map<string, { expr: string; line: number }>();

  constructor(
    code: CodeText,
    private readonly env: Environment,
  ) {
    for (const m of code.text.matchAll(/^([A-Za-z_]\w*)\s*=\s*([^\n]{1,300})$/gm))
      if (!this.consts.has(m[1]!)) this.consts.set(m[1]!, { expr: m[2]!.trim(), line: code.line(m.index) });
  }

  eval(expr: string): { readonly value?: PyValue; readonly via: readonly string[] } {
    const via: string[] = [];
    const v = this.value(expr.trim(), via, 0);
    return v === undefined ? { via } : { value: v, via };
  }

  private value(e: string, via: string[], depth: number): PyValue | undefined {
    if (depth > 12 || e.length > 300) return undefined;
    if (/^-?\d+(\.\d+)?$/.test(e)) return Number(e);
    const s = /^[rbuf]?(['"])((?:\\.|(?!\1).)*)\1$/s.exec(e);
    if (s) return s[2]!;
    if (e === 'True' || e === 'False') return e === 'True';
    if (e === 'None') return null;
    const wrap = /^(int|float|bool|str)\s*\(([\s\S]*)\)$/.exec(e);
    if (wrap) {
      const inner = this.value(wrap[2]!.trim(), via, depth + 1);
      if (inner === undefined || inner === null) return undefined;
      if (wrap[1] === 'int') return Math.trunc(Number(inner));
      if (wrap[1] === 'float') return Number(inner);
      if (wrap[1] === 'bool') return typeof inner === 'string' ? /^(1|true|yes|on)$/i.test(inner) : Boolean(inner);
      return String(inner);
    }
    const fromEnv =
      /^os\.(?:environ\.get|getenv)\(\s*(['"])(\w+)\1\s*(?:,\s*([\s\S]+))?\)$/.exec(e) ??
      /^os\.environ\[\s*(['"])(\w+)\1\s*\]$/.exec(e) ??
      /^env(?:\.\w+)?\(\s*(['"])(\w+)\1\s*(?:,\s*(?:default\s*=\s*)?([\s\S]+))?\)$/.exec(e);
    if (fromEnv) {
      const v = this.env.get(fromEnv[2]!);
      if (v) {
        via.push(`${fromEnv[2]} from ${v.file}:${v.line}`);
        return v.value;
      }
      if (fromEnv[3] === undefined) return undefined;
      via.push(`${fromEnv[2]} unset: its default`);
      return this.value(fromEnv[3].trim(), via, depth + 1);
    }
    const op = /^(.+?)\s*([-+*/])\s*([^-+*/]+)$/.exec(e);
    if (op) {
      const [a, b] = [this.value(op[1]!.trim(), via, depth + 1), this.value(op[3]!.trim(), via, depth + 1)];
      if (typeof a !== 'number' || typeof b !== 'number') return undefined;
      return op[2] === '+' ? a + b : op[2] === '-' ? a - b : op[2] === '*' ? a * b : a / b;
    }
    if (/^[A-Za-z_]\w*$/.test(e)) {
      const c = this.consts.get(e);
      if (!c) return undefined;
      const v = this.value(c.expr, via, depth + 1);
      if (v !== undefined) via.push(`${e} = ${String(v)} (line ${c.line})`);
      return v;
    }
    return undefined;
  }
}
