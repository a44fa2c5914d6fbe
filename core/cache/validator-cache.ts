/**
 * JSON Schema validation, kept across runs as data. ajv spends most of a run compiling schemas
 * into code. Caching that code would mean running, on every check, code read from a directory
 * anyone with write access to the checkout (or a CI cache restored from another branch) can
 * change, and proving it is what ajv would have produced costs the compile it saves. So what is
 * kept is the outcome instead: whether a schema compiles (and ajv's message when not), and for
 * each validation the verdict and ajv's errors, keyed by a digest of everything they depend on
 * (ajv's version and options, every schema's text, the instance). Entries are data, checked for
 * their key and shape before use (content-cache.ts); a run whose schemas and instances did not
 * change never builds ajv at all.
 *
 * The one place code is loaded from disk is the tool's own build output (dist/core/validators/,
 * written by `npm run build`, as trusted as the rest of dist/); nothing under the corpus root is.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import standaloneModule from 'ajv/dist/standalone/index.js';
import { onFlush, writeFileAtomic } from '../output/index.js';
import { toolRoot } from '../tool/index.js';
import { ContentCache } from './content-cache.js';
import { nestingDepth } from './depth.js';

const standaloneCode = ((standaloneModule as unknown as { default?: unknown }).default ?? standaloneModule) as (
  ajv: Ajv,
  refs: Record<string, string>,
) => string;
const requireHere = createRequire(import.meta.url);

/** ajv's version, part of every cache key: its code generator changes between releases. */
export const AJV_VERSION = (() => {
  try {
    const entry = requireHere.resolve('ajv');
    return (
      JSON.parse(
        readFileSync(
          path.join(entry.slice(0, entry.lastIndexOf(`${path.sep}dist${path.sep}`)), 'package.json'),
          'utf8',
        ),
      ) as { version: string }
    ).version;
  } catch {
    return 'unknown';
  }
})();

/**
 * Where `npm run build` leaves validators of the tool's own fixed schemas (the official OpenAPI and
 * AsyncAPI schemas, the config file's, the rules' options), precompiled by ajv's standalone mode
 * (build/precompile-validators.mjs): dist/core/validators/.
 */
export const PREBUILT_VALIDATORS = path.join(toolRoot(), 'dist', 'core', 'validators');

export interface ValidatorStoreOptions {
  /** The tool's own build output, where precompiled validators of fixed schemas may be (read only). */
  prebuilt?: string;
  /** Build time only: write the compiled code of every validator used into `prebuilt`. */
  emit?: boolean;
}

interface Outcome {
  valid: boolean;
  errors: ErrorObject[];
}

type CompileOutcome = { ok: true } | { ok: false; message: string; missingRef: boolean };

export class ValidatorStore {
  private readonly results: ContentCache | undefined;
  private readonly digest: string;
  private readonly compiled = new Map<string, ValidateFunction>();
  private prebuiltLoaded: Map<string, ValidateFunction> | undefined;
  private readonly name: string;

  /**
   * @param directory the corpus's cache directory, or undefined for no cache
   * @param namespace one family of validators ("corpus", "openapi-3.1")
   * @param key everything validation depends on besides the instance (ajv's version and options, the schemas)
   */
  constructor(
    directory: string | undefined,
    private readonly namespace: string,
    key: string,
    private readonly ajv: () => Ajv,
    private readonly options: ValidatorStoreOptions = {},
  ) {
    this.digest = createHash('sha256').update(key).digest('hex');
    this.name = `validators-${namespace}-${this.digest.slice(0, 16)}.cjs`;
    this.results =
      directory && !options.emit ? ContentCache.open(directory, `validation-${namespace}`, this.digest) : undefined;
    if (this.results) onFlush(() => this.results?.save());
    if (options.emit) onFlush(() => this.emit());
  }

  /**
   * A validator for `ref` (a schema `$id`, with a `#pointer` if need be). It throws, as ajv does,
   * when the schema does not compile; its verdicts come from the cache when they can.
   */
  validator(ref: string): ValidateFunction {
    const compiles = this.remember(`compiles ${ref}`, () => this.tryCompile(ref), isCompileOutcome);
    if (!compiles.ok) {
      const error = new Error(compiles.message);
      if (compiles.missingRef) Object.assign(error, { missingRef: true });
      throw error;
    }
    const wrapper = ((data: unknown): boolean => {
      const outcome = this.remember(
        `validate ${ref} ${JSON.stringify(data) ?? 'undefined'}`,
        () => {
          const validate = this.compiledValidator(ref);
          const valid = validate(data);
          return { valid, errors: valid ? [] : structuredClone(validate.errors ?? []) };
        },
        isOutcome,
      );
      wrapper.errors = outcome.valid ? null : outcome.errors;
      return outcome.valid;
    }) as ValidateFunction;
    wrapper.errors = null;
    return wrapper;
  }

  /** A fact that depends only on the key (such as which schemas ajv refuses), kept with the verdicts; `accept` checks a cached one's shape. */
  remember<T>(name: string, compute: () => T, accept: (value: unknown) => value is T): T {
    // The entry carries this key, a digest of everything the answer depends on (the instance included), and is used only under it.
    const key = `fact-${createHash('sha256').update(`${this.namespace}\n${this.digest}\n${name}`).digest('hex')}`;
    const cached = this.results?.get(key, accept);
    if (cached !== undefined) return cached;
    const value = compute();
    this.results?.set(key, value);
    return value;
  }

  private tryCompile(ref: string): CompileOutcome {
    try {
      this.compiledValidator(ref);
      return { ok: true };
    } catch (error) {
      // A stack that runs out is a $ref cycle ajv followed; that answer is not kept, so the caller sees the RangeError itself.
      if (error instanceof RangeError) throw error;
      return {
        ok: false,
        message: error instanceof Error ? error.message : String(error),
        missingRef: error instanceof Error && 'missingRef' in error,
      };
    }
  }

  private compiledValidator(ref: string): ValidateFunction {
    const known = this.compiled.get(ref) ?? this.loadPrebuilt().get(ref);
    if (known) return known;
    const validate = this.ajv().getSchema(ref);
    if (!validate) throw new Error(`cannot compile ${ref}`);
    this.compiled.set(ref, validate as ValidateFunction);
    return validate as ValidateFunction;
  }

  private loadPrebuilt(): Map<string, ValidateFunction> {
    if (this.prebuiltLoaded) return this.prebuiltLoaded;
    this.prebuiltLoaded = new Map();
    if (!this.options.prebuilt || this.options.emit) return this.prebuiltLoaded;
    let code: string;
    try {
      code = readFileSync(path.join(this.options.prebuilt, this.name), 'utf8');
    } catch {
      return this.prebuiltLoaded;
    }
    try {
      const module = { exports: {} as Record<string, unknown> };
      // The tool's own build output (build/precompile-validators.mjs), ajv's standalone code requiring only ajv's runtime and ajv-formats.
      // oxlint-disable-next-line typescript/no-implied-eval, typescript/no-unsafe-call -- loading that generated code is the point
      new Function('require', 'module', 'exports', code)(requireHere, module, module.exports);
      const refs = module.exports.__refs as Record<string, string>;
      for (const [ref, name] of Object.entries(refs))
        this.prebuiltLoaded.set(ref, module.exports[name] as ValidateFunction);
    } catch {
      this.prebuiltLoaded = new Map();
    }
    return this.prebuiltLoaded;
  }

  /** Build time: the code of every validator compiled, into the tool's build output. */
  private emit(): void {
    if (!this.options.prebuilt || this.compiled.size === 0) return;
    const refs = [...this.compiled.keys()].sort();
    const named = refs.map((ref, index) => [ref, `v${index}`] as const);
    const names = Object.fromEntries(named);
    const code = standaloneCode(this.ajv(), Object.fromEntries(named.map(([ref, name]) => [name, ref])));
    writeFileAtomic(
      path.join(this.options.prebuilt, this.name),
      `${code}\nmodule.exports.__refs = ${JSON.stringify(names)};\n`,
    );
    // Files of an older key are never loaded again.
    for (const entry of readdirSync(this.options.prebuilt)) {
      if (entry.startsWith(`validators-${this.namespace}-`) && entry !== this.name)
        rmSync(path.join(this.options.prebuilt, entry), { force: true });
    }
  }
}

function isCompileOutcome(value: unknown): value is CompileOutcome {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    record.ok === true ||
    (record.ok === false && typeof record.message === 'string' && typeof record.missingRef === 'boolean')
  );
}

function isOutcome(value: unknown): value is Outcome {
  if (typeof value !== 'object' || value === null) return false;
  const { valid, errors } = value as Record<string, unknown>;
  if (
    typeof valid !== 'boolean' ||
    !Array.isArray(errors) ||
    (valid && errors.length > 0) ||
    (!valid && errors.length === 0)
  )
    return false;
  // ajv's errors are shallow; the gates format their params recursively.
  if (nestingDepth(errors, 16) > 16) return false;
  return errors.every((error) => {
    if (typeof error !== 'object' || error === null) return false;
    const { instancePath, schemaPath, keyword, params, message } = error as Record<string, unknown>;
    return (
      typeof instancePath === 'string' &&
      typeof schemaPath === 'string' &&
      typeof keyword === 'string' &&
      typeof params === 'object' &&
      params !== null &&
      (message === undefined || typeof message === 'string')
    );
  });
}
