/**
 * `openwop-spec baseline`: the witness ratchet (docs/witness-baseline.json). Shows the counts the
 * corpus has now against the recorded ones; with `--update`, records them. `check` never writes the
 * baseline: lowering it is a deliberate act, and raising it needs `--allow-rise` as well.
 */
import type { Command } from 'commander';
import type { Corpus } from '../core/model/index.js';
import {
  INVARIANTS,
  INVARIANTS_SCHEMA,
  REQUIREMENTS,
  REQUIREMENTS_SCHEMA,
  WITNESS_BASELINE,
  WITNESS_BASELINE_SCHEMA,
  witnessBaseline,
  witnessCounts,
  witnessEntries,
  type WitnessCounts,
} from '../core/registries/index.js';
import { isObject } from '../core/model/index.js';
import { formatJson, note, safeJson, writeTextInside } from '../core/output/index.js';
import { validateRegistry } from '../core/schemas/index.js';
import { EXIT, openCorpus, say, UsageError, configOption, formatOption, rootOption } from './common.js';

interface BaselineOptions {
  root: string;
  config?: string;
  update?: boolean;
  allowRise?: boolean;
  measured?: string;
  format?: string;
}

const MEASURES: ReadonlyArray<{ key: keyof WitnessCounts; label: string }> = [
  { key: 'seamGated', label: 'seam-gated' },
  { key: 'unwitnessable', label: 'unwitnessable' },
];

export function register(program: Command): void {
  program
    .command('baseline')
    .description(`show the witness counts against ${WITNESS_BASELINE}; --update records them`)
    .addOption(rootOption())
    .addOption(configOption())
    .option('--update', `write the current counts to ${WITNESS_BASELINE}`)
    .option('--allow-rise', 'with --update, record a count above the baseline (the ratchet normally only goes down)')
    .option('--measured <date>', 'the date to record, YYYY-MM-DD (default: today, UTC)')
    .addOption(formatOption(['text', 'json'], 'text'))
    .action((options: BaselineOptions) => {
      process.exitCode = runBaseline(options);
    });
}

export function runBaseline(options: BaselineOptions): number {
  const measured = options.measured ?? new Date().toISOString().slice(0, 10);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(measured) || Number.isNaN(Date.parse(`${measured}T00:00:00Z`))) {
    throw new UsageError(`--measured ${JSON.stringify(measured)} is not a date (YYYY-MM-DD)`);
  }
  if (options.format !== undefined && options.format !== 'text' && options.format !== 'json')
    throw new UsageError(`unknown format "${options.format}"; use text or json`);
  const json = options.format === 'json';
  const corpus = openCorpus(options.root, options);
  const invalid = [
    ...validateRegistry(corpus, REQUIREMENTS, REQUIREMENTS_SCHEMA),
    ...validateRegistry(corpus, INVARIANTS, INVARIANTS_SCHEMA),
    ...validateRegistry(corpus, WITNESS_BASELINE, WITNESS_BASELINE_SCHEMA),
  ];
  if (invalid.length > 0) {
    if (json)
      process.stdout.write(
        `${safeJson(JSON.stringify({ diagnostics: invalid.map(({ file, line, column, message }) => ({ file, line, column, message })) }, null, 2))}\n`,
      );
    else for (const finding of invalid) note(`${finding.file}:${finding.line}:${finding.column}: ${finding.message}\n`);
    note(
      say(
        'baseline: the evidence registries do not validate, so their counts cannot be trusted; run `openwop-spec check`\n',
      ),
    );
    return EXIT.findings;
  }

  const now = witnessCounts(witnessEntries(corpus));
  const recorded = witnessBaseline(corpus);
  if (json && !options.update) {
    process.stdout.write(`${safeJson(JSON.stringify({ counts: now, baseline: recorded ?? null }, null, 2))}\n`);
    return EXIT.clean;
  }
  for (const { key, label } of MEASURES) {
    const base = recorded?.[key];
    const was =
      base !== undefined
        ? ` (baseline ${base}${base === now[key] ? '' : now[key] > base ? ', above it' : ', below it'})`
        : '';
    process.stdout.write(`${label}: ${now[key]}${was}\n`);
  }
  if (!options.update) return EXIT.clean;

  const rises = recorded ? MEASURES.filter(({ key }) => recorded[key] !== undefined && now[key] > recorded[key]) : [];
  if (rises.length > 0 && !options.allowRise) {
    note(
      `baseline: not written: ${rises.map(({ key, label }) => `${label} would rise from ${recorded?.[key]} to ${now[key]}`).join('; ')}. The ratchet only goes down; pass --allow-rise to record a rise deliberately\n`,
    );
    return EXIT.findings;
  }
  if (recorded && MEASURES.every(({ key }) => now[key] === recorded[key])) {
    process.stdout.write(`${WITNESS_BASELINE} is current; nothing written\n`);
    return EXIT.clean;
  }
  writeTextInside(corpus.root, WITNESS_BASELINE, render(corpus, now, measured));
  process.stdout.write(`wrote ${WITNESS_BASELINE}\n`);
  return EXIT.clean;
}

/** The file's own `$schema` and `$comment` are kept; the counts and the date are replaced. */
function render(corpus: Corpus, counts: WitnessCounts, measured: string): string {
  const existing = corpus.data(WITNESS_BASELINE)?.value;
  const previous = isObject(existing) ? existing : {};
  return formatJson({
    $schema: typeof previous.$schema === 'string' ? previous.$schema : '../spec/v2/witness-baseline.schema.json',
    ...(typeof previous.$comment === 'string' ? { $comment: previous.$comment } : {}),
    measured,
    seamGated: counts.seamGated,
    unwitnessable: counts.unwitnessable,
  });
}
