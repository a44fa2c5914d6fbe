import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Worker threads start faster than forked processes, and without isolation a worker imports
    // the toolchain (ajv, yaml, lezer, every gate) once for all the files it runs, not once a file.
    // The tests keep no state in modules that another file could see: corpora are built per test.
    pool: 'threads',
    isolate: false,
    // End-to-end cases start the built CLI several times each; on a shared two-core machine one
    // such case can take longer than vitest's default of 5 s without anything being wrong.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
