import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compileJob, type CompileJob } from '../../core/schemas/compile-job.js';
import { CLI, REPO, reported } from '../helpers.js';
import { evidenceDirectory } from '../evidence/support.js';

const SCHEMA = 'https://json-schema.org/draft/2020-12/schema';
const id = (file: string) => `https://openwop.dev/schemas/v2/${file}`;

/** A corpus whose schemas fail to compile in two ways, and one that compiles. */
const FILES = {
  'schemas/v2/strict.schema.json': `${JSON.stringify({ $schema: SCHEMA, $id: id('strict.schema.json'), title: 't', description: 'd', type: 'object', $defs: { loose: { properties: { x: { type: 'string' } } } } }, null, 2)}\n`,
  'schemas/v2/fine.schema.json': `${JSON.stringify({ $schema: SCHEMA, $id: id('fine.schema.json'), title: 't', description: 'd', type: 'object', properties: { a: { $ref: 'strict.schema.json' } } }, null, 2)}\n`,
  'schemas/v2/union.schema.json': `${JSON.stringify({ $schema: SCHEMA, $id: id('union.schema.json'), title: 't', description: 'd', type: 'object', properties: { n: { minimum: 1 } } }, null, 2)}\n`,
};

function checkSchemasSpawned(root: string, threads: boolean): { status: number | null; stdout: string } {
  const { FORCE_COLOR: _, ...env } = process.env;
  const result = spawnSync(process.execPath, [CLI, 'check', '--root', root, '--rule', 'schemas/compile', '--no-cache', '--format', 'json'], {
    encoding: 'utf8',
    env: { ...env, NO_COLOR: '1', OPENWOP_SPEC_THREADS: threads ? '1' : '0' },
  });
  return { status: result.status, stdout: result.stdout };
}

describe('schemas compiled on a second thread', { timeout: 60_000 }, () => {
  it('gives the findings the main thread gives, at the same places', () => {
    const root = evidenceDirectory(FILES);
    const threaded = checkSchemasSpawned(root, true);
    const alone = checkSchemasSpawned(root, false);
    expect(threaded.status).toBe(1);
    expect(threaded.stdout).toBe(alone.stdout);
    const found = reported(threaded.stdout).map((d) => ({ rule: d.rule, messageId: d.messageId, data: d.data, at: `${d.file}:${d.line}` }));
    expect(found).toEqual([
      {
        rule: 'schemas/compile',
        messageId: 'strict-mode',
        data: { problem: 'missing type "object" for keyword "properties" (strictTypes)' },
        at: 'schemas/v2/strict.schema.json:8',
      },
      {
        rule: 'schemas/compile',
        messageId: 'strict-mode',
        data: { problem: 'missing type "number" for keyword "minimum" (strictTypes)' },
        at: 'schemas/v2/union.schema.json:8',
      },
    ]);
  });

  it('answers each batch it was given with what compileJob gives on this thread, and nothing for a batch it was not given', async () => {
    // The built module: under vitest the sources run as TypeScript, and no thread is started from them.
    const { CompileThread } = (await import(pathToFileURL(path.join(REPO, 'dist', 'core', 'schemas', 'compile-thread.js')).href)) as typeof import('../../core/schemas/compile-thread.js');
    const values = Object.fromEntries(Object.entries(FILES).map(([file, text]) => [file, JSON.parse(text) as { $id: string }]));
    const jobs: CompileJob[] = Object.entries(values).map(([file, value], index) => ({
      key: `batch-${index}`,
      keywords: [],
      schemas: Object.values(values).map((schema) => ({ id: schema.$id, value: schema })),
      targets: [{ file, pointer: '', id: value.$id }, ...(file.includes('strict') ? [{ file, pointer: '/$defs/loose', id: value.$id }] : [])],
    }));
    const before = process.env.OPENWOP_SPEC_THREADS;
    process.env.OPENWOP_SPEC_THREADS = '1';
    let thread: ReturnType<typeof CompileThread.start>;
    try {
      thread = CompileThread.start(jobs);
    } finally {
      if (before === undefined) delete process.env.OPENWOP_SPEC_THREADS;
      else process.env.OPENWOP_SPEC_THREADS = before;
    }
    expect(thread).toBeDefined();
    for (const job of [...jobs].reverse()) expect(thread?.failuresOf(job.key)).toEqual(compileJob(job));
    expect(thread?.failuresOf('batch-never-started')).toBeUndefined();
  });

  it('is started only with OPENWOP_SPEC_THREADS=1, and not without jobs', () => {
    const script = `const { CompileThread } = await import(${JSON.stringify(pathToFileURL(path.join(REPO, 'dist', 'core', 'schemas', 'compile-thread.js')).href)});
process.stdout.write(String(CompileThread.start([{ key: 'k', keywords: [], schemas: [], targets: [] }]) === undefined) + ' ' + String(CompileThread.start([]) === undefined));`;
    const run = (threads: string | undefined) => {
      const { OPENWOP_SPEC_THREADS: _, ...env } = process.env;
      return spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', env: threads === undefined ? env : { ...env, OPENWOP_SPEC_THREADS: threads } }).stdout;
    };
    expect(run(undefined)).toBe('true true');
    expect(run('0')).toBe('true true');
    expect(run('1')).toBe('false true');
  });
});
