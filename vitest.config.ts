import { defineConfig } from 'vitest/config';

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
    maxWorkers: 2,
    isolate: false,
    // The built CLI is loaded by Node.js itself, as the executable loads it, and once per worker;
    // through vitest's transform it would be a second, slower copy of what `npm run build` made.
    server: { deps: { external: [/\/dist\//] } },
    // End-to-end cases start the built CLI several times each; on a shared two-core machine one
    // such case can take longer than vitest's default of 5 s without anything being wrong.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
