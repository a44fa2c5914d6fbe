// Part of `npm run build`, after tsc: the command line as a few ES modules instead of some four
// hundred. Loading is most of a short run's start-up (a module costs its resolution and its own
// compile, and ajv alone is eighty CommonJS files), so the compiled entry dist/scripts/cli.js is
// replaced by a bundle of it and everything it imports, split at the verbs' lazy imports so that
// a verb still loads only what it needs. The other files of dist/ stay as tsc wrote them (the
// library entry, the build's own scripts, the files a release ships).
import { rmSync } from 'node:fs';
import { build } from 'esbuild';

// Chunks are named by content: those of an earlier build would stay beside the new ones.
rmSync('dist/scripts/chunks', { recursive: true, force: true });

await build({
  // From the sources, not from tsc's dist/scripts/cli.js, which this replaces: building twice gives the same bundle.
  // The schema compile thread is an entry of its own: a worker loads a module by its path. So is
  // the command line apart from its process (scripts/main.ts), which the tests run in process.
  entryPoints: { cli: 'scripts/cli.ts', main: 'scripts/main.ts', 'compile-worker': 'core/schemas/compile-worker.ts' },
  tsconfig: 'tsconfig.json',
  outdir: 'dist/scripts',
  allowOverwrite: true,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  chunkNames: 'chunks/[name]-[hash]',
  // CommonJS dependencies call require() for Node's built-ins; an ES module has none of its own.
  banner: { js: "import { createRequire as __openwopSpecRequire } from 'node:module'; const require = __openwopSpecRequire(import.meta.url);" },
  // jsonc-parser's CommonJS build is UMD, whose require() of its own files a bundler cannot follow;
  // json-schema-to-typescript (with the prettier it carries) is loaded by `pack` alone, and through
  // a dynamic import, where a bundled CommonJS module would lose its named exports.
  external: ['jsonc-parser', 'json-schema-to-typescript'],
  logLevel: 'warning',
  legalComments: 'none',
});
