/**
 * `--format F --output FILE`, repeatable: several reports from one run (`--format sarif --output
 * x.sarif --format stylish`). Commander keeps no order between two options, so each occurrence is
 * recorded as it is parsed and the pairs are made from that order afterwards.
 */
import path from 'node:path';
import { FORMATS, REPORTERS } from '../core/output/index.js';
import type { ReportTarget } from './common.js';
import { UsageError } from './tool.js';

type Occurrence = readonly ['format' | 'output', string];

/** The option parsers of --format and --output, and the reports they asked for. */
export function reportOptions(): {
  format: (value: string) => string;
  output: (value: string) => string;
  targets: () => ReportTarget[];
} {
  const seen: Occurrence[] = [];
  return {
    format: (value) => (seen.push(['format', value]), value),
    output: (value) => (seen.push(['output', value]), value),
    targets: () => pairReports(seen),
  };
}

/**
 * An --output belongs to the --format just before it; one that follows another --output (or comes
 * first) waits for the next --format. With no --format at all, an --output takes the default
 * report. At most one report goes to stdout, and no two to one file.
 */
export function pairReports(occurrences: readonly Occurrence[], fallback = 'stylish'): ReportTarget[] {
  const targets: Array<{ format?: string; output?: string }> = [];
  let pending: string | undefined;
  for (const [kind, value] of occurrences) {
    if (kind === 'format') {
      if (!REPORTERS[value]) throw new UsageError(`unknown format "${value}"; use one of ${FORMATS.join(', ')}`);
      targets.push({ format: value, ...(pending !== undefined ? { output: pending } : {}) });
      pending = undefined;
      continue;
    }
    if (pending !== undefined)
      throw new UsageError(
        `--output ${pending} and --output ${value} follow no --format of their own: write each --output after its --format`,
      );
    const last = targets.at(-1);
    if (last && last.output === undefined) last.output = value;
    else pending = value;
  }
  if (pending !== undefined) {
    if (targets.length > 0)
      throw new UsageError(
        `--output ${pending} follows no --format of its own: write each --output after its --format`,
      );
    targets.push({ format: fallback, output: pending });
  }
  if (targets.length === 0) targets.push({ format: fallback });
  const toStdout = targets.filter((t) => t.output === undefined);
  if (toStdout.length > 1)
    throw new UsageError(
      `--format ${toStdout.map((t) => t.format).join(' and --format ')} would both write to stdout: give all but one an --output FILE`,
    );
  const files = targets.flatMap((t) => (t.output === undefined ? [] : [path.resolve(t.output)]));
  const twice = files.find((file, i) => files.indexOf(file) !== i);
  if (twice !== undefined) throw new UsageError(`two reports would be written to ${twice}`);
  return targets.map((t) => ({ format: t.format as string, ...(t.output !== undefined ? { output: t.output } : {}) }));
}
