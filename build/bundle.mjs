// Part of `npm run build`, after tsc: the command line as a few ES modules instead of some four
// hundred. Loading is most of a short run's start-up (a module costs its resolution and its own
// compile, and ajv alone is eighty CommonJS files), so the compiled entry dist/scripts/cli.js is
// replaced by a bundle of it and everything it imports, split at the verbs' lazy imports so that
// a verb still loads only what it needs. The other files of dist/ stay as tsc wrote them (the
// library entry, the build's own scripts, the files a release ships).
import { readFileSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

// Chunks are named by content: those of an earlier build would stay beside the new ones. The code
// cache of an earlier script goes too (it would be ignored, its digest no longer matching).
rmSync('dist/scripts/chunks', { recursive: true, force: true });
rmSync('dist/scripts/main-script.cache', { force: true });

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

// The same command line as one CommonJS script wrapped in a function, which scripts/cli.ts compiles
// with vm.Script so that V8's code cache can be handed to it (scripts/script-bundle.ts):
// build/code-cache.mjs then makes that cache. import.meta.url becomes the script's own file URL.
await build({
  entryPoints: { 'main-script': 'scripts/main.ts' },
  tsconfig: 'tsconfig.json',
  outdir: 'dist/scripts',
  outExtension: { '.js': '.cjs' },
  allowOverwrite: true,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node22',
  define: { 'import.meta.url': '__openwopSpecModuleUrl' },
  // "use strict" first: the bundled modules are ES modules, which are strict, and a directive
  // counts only at the top of the function.
  banner: {
    js: '(function (exports, require, module, __filename, __dirname) {\n"use strict";\nconst __openwopSpecModuleUrl = require("node:url").pathToFileURL(__filename).href;',
  },
  footer: { js: '})' },
  external: ['jsonc-parser', 'json-schema-to-typescript'],
  logLevel: 'warning',
  legalComments: 'none',
});

// vm.Script hands an import() only to Node's experimental loader hook, which warns on stderr: the
// script must require its external packages instead.
const script = readFileSync('dist/scripts/main-script.cjs', 'utf8');
const dynamicImport = /(?:^|[^\w$.])import\s*\(/m.exec(script);
if (dynamicImport)
  throw new Error(`dist/scripts/main-script.cjs holds an import() (offset ${dynamicImport.index}): require the package instead (scripts/script-bundle.ts)`);
