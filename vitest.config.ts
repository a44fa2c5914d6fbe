import path from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest, slowest first, as measured on the two-core machine (each runs the
 * tool on a copy of this repository's corpus many times, or packs and installs packages). They
 * start first, so that no worker is left running one of them alone at the end; a fresh clone has
 * no durations of an earlier run for vitest to order by. A file missing here only starts later.
 */
const SLOWEST = [
  'test/invariants/edits-combined.test.ts',
  'test/invariants/edits.test.ts',
  'test/invariants/edits-upstream.test.ts',
  'test/release/repository.test.ts',
  'test/policy/messages.test.ts',
  'test/policy/fix-writes.test.ts',
  'test/trust/generate-writes.test.ts',
  'test/trust/cache.test.ts',
  'test/bench/make-corpus.test.ts',
  'test/trust/bounds.test.ts',
  'test/upstream/citations.test.ts',
  'test/policy/scope.test.ts',
  'test/policy/one-run.test.ts',
  'test/lsp/server.test.ts',
  'test/lsp/neovim.test.ts',
  'test/release/pack.test.ts',
  'test/release/tar.test.ts',
  'test/markdown/parse.test.ts',
  'test/trust/required.test.ts',
  'test/api/repository.test.ts',
];

class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification): number => {
      const index = SLOWEST.indexOf(path.relative(this.ctx.config.root, file.moduleId).split(path.sep).join('/'));
      return index === -1 ? SLOWEST.length : index;
    };
    // The rest keep vitest's order: the last run's durations where it has them, else larger files first.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Forked workers, not threads: end-to-end cases run the built CLI inside the worker
    // (test/helpers.ts `cli`), each in its own working directory, and only a process can chdir.
    // Without isolation a worker imports the toolchain (ajv, yaml, lezer, every gate) once for all
    // the files it runs, not once a file. The tests keep no state in modules that another file
    // could see: corpora are built per file or per test, and each in-process run of the CLI
    // restores what it changed.
    pool: 'forks',
    isolate: false,
    // Both cores: vitest's default on two is one worker, which left a core idle.
    maxWorkers: 2,
    sequence: { sequencer: SlowestFirst },
    // The built CLI is loaded by Node.js itself, as the executable loads it, and once per worker;
    // through vitest's transform it would be a second, slower copy of what `npm run build` made.
    server: { deps: { external: [/\/dist\//] } },
    // End-to-end cases run the CLI many times each; on a shared two-core machine one such case can
    // take longer than vitest's default of 5 s without anything being wrong.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
