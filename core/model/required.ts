/**
 * What a corpus must contain (the config's `required`: registries, API documents) and what it must
 * not (entries that are not regular files). A gate that reads a registry says nothing when it is
 * absent, and a generator simply has less to digest, so without this a deleted registry would pass
 * every gate and leave the stamp and the release without it.
 */
import path from 'node:path';
import type { Corpus } from './corpus.js';
import { type Span, renderMessage } from '../output/index.js';

export interface RequiredProblem extends Span {
  /** Where the finding stands: the config entry that requires the file, or the file's own path. */
  file: string;
  /** The required file that is missing, wherever the finding stands. */
  required: string;
  /** Why it counts as missing: absent, a file the corpus does not read (a link, a device), or not a file the globs select. */
  reason: 'absent' | 'irregular' | 'not-read';
  /** The reason in words, as the message gives it. */
  why: string;
  message: string;
  hint: string;
}

/**
 * Each required file the corpus lacks (or holds in a form that is not read: a link, a file too
 * large or unreadable counts as present and is reported by its own gate). Located at the entry of
 * the config that requires it when that config lies inside the root and lists it, else at the
 * missing path.
 */
export function missingRequired(corpus: Corpus, except: ReadonlySet<string> = new Set()): RequiredProblem[] {
  const problems: RequiredProblem[] = [];
  const config = corpus.config;
  const source = configInsideRoot(corpus);
  for (const file of config.required) {
    if (corpus.files.has(file) || except.has(file)) continue;
    const irregular = corpus.irregularKinds.get(file);
    const reason = irregular ? 'irregular' : corpus.exists(file) ? 'not-read' : 'absent';
    const why = irregular
      ? `is ${irregular}, which the corpus does not read`
      : reason === 'not-read'
        ? 'is not a file the corpus reads (a directory, or outside the include globs)'
        : 'does not exist';
    const where = source ? config.requiredAt?.[file] : undefined;
    problems.push({
      file: where && source ? source : file,
      required: file,
      reason,
      why,
      ...(where
        ? { line: where.line, column: where.column, endLine: where.line, endColumn: where.endColumn }
        : { line: 1, column: 1 }),
      message: requiredMessage(file, why),
      hint: irregular
        ? 'replace the link with the file itself'
        : `restore ${file}, or remove it from \`required\` in the config if this corpus has none`,
    });
  }
  return problems;
}

/** The words of a missing-file finding; corpus/required words its findings from the same template. */
export const REQUIRED_MESSAGE =
  'the corpus must contain {{file}} (config `required`), but it {{why}}; the gates and generators that read it have nothing to read, and the stamp and the release would lack it';

function requiredMessage(file: string, why: string): string {
  return renderMessage(REQUIRED_MESSAGE, { file, why });
}

/** The config file's path relative to the root, when it lies inside it (a finding can point there). */
function configInsideRoot(corpus: Corpus): string | undefined {
  const source = corpus.config.source;
  if (!source) return undefined;
  const relative = path.relative(corpus.root, source);
  if (!relative || relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
  return relative.split(path.sep).join('/');
}
