/**
 * Compiled JSON Schema validators kept across runs. ajv spends most of a run compiling schemas
 * into code; its standalone mode can write that code out, so a run whose schemas did not change
 * loads the validators instead of compiling them. The cache is keyed by everything that shapes
 * the code (the schemas' text, ajv's version and options); a miss, or any trouble reading the
 * cache, just compiles. Nothing a run reports depends on whether the cache was used.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Ajv, ValidateFunction } from 'ajv';
import standaloneModule from 'ajv/dist/standalone/index.js';
import { onFlush } from '../output/index.js';
import { writeFileAtomic } from '../output/index.js';

const standaloneCode = ((standaloneModule as unknown as { default?: unknown }).default ?? standaloneModule) as (ajv: Ajv, refs: Record<string, string>) => string;
const requireHere = createRequire(import.meta.url);

/** ajv's version, part of every cache key: its code generator changes between releases. */
export const AJV_VERSION = (() => {
  try {
    const entry = requireHere.resolve('ajv');
    return (JSON.parse(readFileSync(path.join(entry.slice(0, entry.lastIndexOf(`${path.sep}dist${path.sep}`)), 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
})();

export class ValidatorStore {
  private loaded: Map<string, ValidateFunction> | undefined;
  private facts: Record<string, unknown> = {};
  private readonly compiledHere = new Set<string>();
  private learned = false;

  /**
   * @param directory where cache files live, or undefined for no cache
   * @param namespace one family of validators ("corpus", "openapi-3.1"); a new key replaces its older files
   * @param key everything the generated code depends on
   */
  constructor(
    private readonly directory: string | undefined,
    private readonly namespace: string,
    key: string,
    private readonly ajv: () => Ajv,
    /** Read-only places to look as well: validators the toolchain build precompiled. */
    private readonly prebuilt: readonly string[] = [],
  ) {
    this.name = `validators-${namespace}-${createHash('sha1').update(key).digest('hex').slice(0, 16)}.cjs`;
    this.file = directory ? path.join(directory, this.name) : undefined;
    if (this.file) onFlush(() => this.save());
  }

  private readonly name: string;
  private readonly file: string | undefined;

  /** A validator for `ref` (a schema `$id`, with a `#pointer` if need be): loaded if cached, else compiled. */
  validator(ref: string): ValidateFunction {
    const cached = this.load().get(ref);
    if (cached) return cached;
    const validate = this.ajv().getSchema(ref);
    if (!validate) throw new Error(`cannot compile ${ref}`);
    this.compiledHere.add(ref);
    return validate as ValidateFunction;
  }

  /** A fact that depends only on the key (such as which schemas ajv refuses): cached with the validators. */
  remember<T>(name: string, compute: () => T): T {
    this.load();
    if (name in this.facts) return this.facts[name] as T;
    const value = compute();
    this.facts[name] = value;
    this.learned = true;
    return value;
  }

  private load(): Map<string, ValidateFunction> {
    if (this.loaded) return this.loaded;
    this.loaded = new Map();
    const candidates = [...(this.file ? [this.file] : []), ...this.prebuilt.map((directory) => path.join(directory, this.name))];
    const code = candidates.map(readIfPresent).find((text) => text !== undefined);
    if (code === undefined) return this.loaded;
    try {
      const module = { exports: {} as Record<string, unknown> };
      // The code is ajv's own standalone output, written by this class; it requires only ajv's runtime and ajv-formats.
      new Function('require', 'module', 'exports', code)(requireHere, module, module.exports);
      const refs = module.exports.__refs as Record<string, string>;
      for (const [ref, name] of Object.entries(refs)) this.loaded.set(ref, module.exports[name] as ValidateFunction);
      this.facts = (module.exports.__facts as Record<string, unknown> | undefined) ?? {};
    } catch {
      this.loaded = new Map();
      this.facts = {};
    }
    return this.loaded;
  }

  /** Writes every validator this run used, when some had to be compiled. */
  private save(): void {
    if (!this.file || (this.compiledHere.size === 0 && !this.learned)) return;
    try {
      const refs = [...new Set([...(this.loaded?.keys() ?? []), ...this.compiledHere])].sort();
      const names = Object.fromEntries(refs.map((ref, index) => [ref, `v${index}`]));
      const code = standaloneCode(this.ajv(), Object.fromEntries(refs.map((ref) => [names[ref], ref])));
      writeFileAtomic(this.file, `${code}\nmodule.exports.__refs = ${JSON.stringify(names)};\nmodule.exports.__facts = ${JSON.stringify(this.facts)};\n`);
      const prefix = `validators-${this.namespace}-`;
      for (const entry of readdirSync(path.dirname(this.file))) {
        if (entry.startsWith(prefix) && entry !== path.basename(this.file)) rmSync(path.join(path.dirname(this.file), entry), { force: true });
      }
    } catch {
      // A cache that cannot be written only costs the next run its speed.
    }
  }
}

function readIfPresent(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
