/**
 * The installable package, as a user gets it: `pnpm package` packs dist/retry-studio-VERSION.tgz,
 * npm installs it into an empty prefix (no dependencies to fetch), and the installed
 * `retry-studio` answers --version, lints a definitions file in every format (SARIF validated
 * against the SARIF 2.1.0 schema, locations pointing at the objects' lines), generates a
 * template and serves the web app and the API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
let prefix = '';
let work = '';
let bin = '';

const run = (args: string[], opts: { cwd?: string } = {}) => {
  const r = spawnSync(bin, args, {
    cwd: opts.cwd ?? work,
    encoding: 'utf8',
    env: { ...process.env, RETRY_STUDIO_PROG: '' },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
};

/** A definitions file with one error (a dead-letter exchange never declared) and one warning (a length limit that drops). */
function definitionsWithFindings(): string {
  const doc = {
    rabbit_version: '3.13.7',
    vhosts: [{ name: '/' }],
    exchanges: [
      { name: 'orders', vhost: '/', type: 'direct', durable: true, auto_delete: false, internal: false, arguments: {} },
    ],
    queues: [
      {
        name: 'orders.q',
        vhost: '/',
        durable: true,
        auto_delete: false,
        arguments: { 'x-dead-letter-exchange': 'orders.dlx.never-declared' },
      },
      { name: 'orders.capped', vhost: '/', durable: true, auto_delete: false, arguments: { 'x-max-length': 10 } },
    ],
    bindings: [
      {
        source: 'orders',
        vhost: '/',
        destination: 'orders.q',
        destination_type: 'queue',
        routing_key: 'orders',
        arguments: {},
      },
    ],
    policies: [],
  };
  return JSON.stringify(doc, null, 2) + '\n';
}

/** 1-based line of the object whose "name" is NAME (its opening brace) in pretty-printed JSON. */
function objectLine(text: string, name: string): number {
  const lines = text.split('\n');
  const nameLine = lines.findIndex((l) => l.includes(`"name": ${JSON.stringify(name)}`));
  for (let i = nameLine; i >= 0; i--) if (lines[i]!.trimEnd().endsWith('{')) return i + 1;
  throw new Error(`no object named ${name}`);
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });

beforeAll(() => {
  const tgz = execFileSync('node', [join(root, 'scripts/package.mjs')], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  })
    .trim()
    .split('\n')
    .at(-1)!;
  expect(tgz).toBe(join(root, 'dist', `retry-studio-${version}.tgz`));
  prefix = mkdtempSync(join(tmpdir(), 'retry-studio-prefix-'));
  work = mkdtempSync(join(tmpdir(), 'retry-studio-work-'));
  execFileSync('npm', ['install', '-g', '--prefix', prefix, '--no-audit', '--no-fund', '--offline', tgz], {
    cwd: work,
    stdio: 'ignore',
  });
  bin = join(prefix, 'bin', 'retry-studio');
  writeFileSync(join(work, 'definitions.json'), definitionsWithFindings());
}, 240_000);

afterAll(() => {
  rmSync(prefix, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

describe('the installed retry-studio package', () => {
  it('answers --version, --help per command, and exit 2 with the list for an unknown command', () => {
    expect(run(['--version'])).toMatchObject({ code: 0, out: `${version}\n` });
    const help = run(['lint', '--help']);
    expect(help.code).toBe(0);
    expect(help.out).toContain('retry-studio lint FILE [--format text|json|sarif|github]');
    const unknown = run(['nope']);
    expect(unknown.code).toBe(2);
    for (const c of [
      'templates',
      'generate',
      'lint',
      'simulate',
      'export',
      'import',
      'compare',
      'rename',
      'import-broker',
      'dlq',
      'serve',
    ])
      expect(unknown.err).toContain(`  ${c} `);
    const badFormat = run(['lint', 'definitions.json', '--format', 'pdf']);
    expect(badFormat.code).toBe(2);
    expect(badFormat.err).toContain('--format must be one of text, json, sarif, github');
  });

  it('lints in text and json (exit 1 on an error)', () => {
    const text = run(['lint', 'definitions.json']);
    expect(text.code).toBe(1);
    expect(text.out).toContain('dlx-missing');
    const json = run(['lint', 'definitions.json', '--format', 'json']);
    expect(json.code).toBe(1);
    const ids = (JSON.parse(json.out) as { findings: { id: string }[] }).findings.map((f) => f.id);
    expect(ids).toEqual(expect.arrayContaining(['dlx-missing', 'overflow-drops-silently']));
  });

  it('writes SARIF 2.1.0 that the schema accepts, each result at the line and column of its object', () => {
    const r = run(['lint', 'definitions.json', '--format', 'sarif']);
    expect(r.code).toBe(1);
    const log = JSON.parse(r.out) as {
      version: string;
      runs: {
        tool: {
          driver: {
            rules: {
              id: string;
              shortDescription: { text: string };
              fullDescription: { text: string };
              defaultConfiguration: { level: string };
              help: { text: string };
            }[];
          };
        };
        results: {
          ruleId: string;
          level: string;
          message: { text: string };
          locations: {
            physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number; startColumn: number } };
          }[];
        }[];
      }[];
    };
    const schema = JSON.parse(
      readFileSync(fileURLToPath(new URL('./sarif-schema-2.1.0.json', import.meta.url)), 'utf8'),
    ) as object;
    const validate = new Ajv({ allErrors: true, strict: false, validateFormats: false, unicodeRegExp: false }).compile(
      schema,
    );
    expect(validate(log), JSON.stringify(validate.errors?.slice(0, 5))).toBe(true);
    expect(log.version).toBe('2.1.0');
    const run0 = log.runs[0]!;
    for (const rule of run0.tool.driver.rules) {
      expect(rule.shortDescription.text.length).toBeGreaterThan(5);
      expect(rule.fullDescription.text.length).toBeGreaterThan(20);
      expect(['error', 'warning', 'note']).toContain(rule.defaultConfiguration.level);
      expect(rule.help.text.length).toBeGreaterThan(10);
    }
    const source = readFileSync(join(work, 'definitions.json'), 'utf8');
    const dlx = run0.results.find((x) => x.ruleId === 'dlx-missing')!;
    expect(dlx.level).toBe('error');
    expect(dlx.locations[0]!.physicalLocation.artifactLocation.uri).toBe('definitions.json');
    expect(dlx.locations[0]!.physicalLocation.region).toEqual({
      startLine: objectLine(source, 'orders.q'),
      startColumn: 5,
    });
    const ttl = run0.results.find((x) => x.ruleId === 'overflow-drops-silently')!;
    expect(ttl.level).toBe('warning');
    expect(ttl.locations[0]!.physicalLocation.region.startLine).toBe(objectLine(source, 'orders.capped'));
  });

  it("writes GitHub Actions annotations at the objects' lines", () => {
    const r = run(['lint', 'definitions.json', '--format', 'github']);
    expect(r.code).toBe(1);
    const source = readFileSync(join(work, 'definitions.json'), 'utf8');
    const lines = r.out.trim().split('\n');
    expect(
      lines.every((l) => /^::(error|warning|notice) file=definitions\.json,line=\d+,col=\d+,title=[^:]+::.+$/.test(l)),
    ).toBe(true);
    expect(lines.find((l) => l.includes('title=dlx-missing'))).toMatch(
      new RegExp(`^::error file=definitions\\.json,line=${objectLine(source, 'orders.q')},col=5,`),
    );
  });

  it('generates a template', () => {
    const r = run(['generate', 'dlx-ttl-wait-queue', '--format', 'definitions']);
    expect(r.code).toBe(0);
    expect((JSON.parse(r.out) as { queues: unknown[] }).queues.length).toBeGreaterThan(2);
  });

  it('serves the web app and the API, and names a port in use', async () => {
    const port = await freePort();
    const server: ChildProcess = spawn(bin, ['serve', '--port', String(port)], {
      cwd: work,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      await new Promise<void>((resolve, reject) => {
        let seen = '';
        server.stdout!.on('data', (b: Buffer) => {
          seen += b.toString();
          if (seen.includes(`http://127.0.0.1:${port}`)) resolve();
        });
        server.once('exit', (code) => reject(new Error(`serve exited ${code}`)));
      });
      const page = await fetch(`http://127.0.0.1:${port}/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="root">');
      const broker = await fetch(`http://127.0.0.1:${port}/api/broker`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(broker.status).toBe(200);
      expect(await broker.json()).toMatchObject({ product: 'RabbitMQ' });
      // heavy work runs in the bundled worker thread (lib/heavy-worker.js); a load over budget is refused naming its field
      const rehearse = (body: unknown) =>
        fetch(`http://127.0.0.1:${port}/api/rehearse`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      const design = JSON.parse(run(['generate', 'dlx-ttl-wait-queue']).out) as unknown;
      const ok = await rehearse({ design, load: { rate: 10, durationMs: 60_000 } });
      expect(ok.status).toBe(200);
      expect(await ok.json()).toMatchObject({ messages: 600 });
      const big = await rehearse({ design, load: { rate: 10, durationMs: 7 * 24 * 3600_000 }, sampleMs: 10 });
      expect(big.status).toBe(422);
      expect(await big.json()).toMatchObject({ field: 'sampleMs' });
      const busy = run(['serve', '--port', String(port)]);
      expect(busy.code).toBe(1);
      expect(busy.err).toContain(`port ${port} is in use`);
    } finally {
      server.kill('SIGTERM');
    }
  }, 60_000);
});
