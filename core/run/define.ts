/** The two kinds of plug-in: a gate (corpus -> findings) and a generator (corpus -> content). */
import type { Corpus } from '../model/index.js';
import type { OptionSpec } from '../config/index.js';
import {
  collector,
  renderMessage,
  type Diagnostic,
  type Finding,
  type Report,
  type Severity,
} from '../output/index.js';

/** What a gate is given besides the corpus. */
export interface CheckContext {
  /**
   * The previous release, for gates that compare against one: a directory, a .tgz or `git:<ref>`,
   * as `--previous-release` names it or as found from spec/v2/release.json or the newest version
   * tag. Absent when there is none: a comparison with nothing says nothing.
   */
  previousRelease?: string;
  /** The rule's options: its declared defaults with the config's values over them. */
  options: Readonly<Record<string, unknown>>;
}

export interface Check {
  /** Stable, `family/name`; printed with every finding. */
  id: string;
  /** One line, shown by `openwop-spec rules`. */
  summary: string;
  /** What the rule asks and why, and how to satisfy it: its page in docs/rules.md. Default: the summary. */
  description?: string;
  /** Whether some of its findings carry a fix that `--fix` applies. */
  fixable?: boolean;
  severity: Severity;
  /**
   * What its findings say, by message id (ESLint's `messages`): a finding that gives a `messageId`
   * and its `data` and no `message` is worded from here, `{{name}}` standing for `data.name`. So
   * the wording lives in one place and code (the cascade, tests) decides by id and data.
   */
  messages?: Readonly<Record<string, string>>;
  /** The options the config may set (`rules: {"id": [severity, {name: value}]}`), each a JSON Schema with a default. */
  options?: Readonly<Record<string, OptionSpec>>;
  run(corpus: Corpus, report: Report, context: CheckContext): void;
  /**
   * Starts work `run` will need that can go on beside the other gates (compiling schemas on a
   * second thread). Called once for each gate that will run, before any runs; it reports nothing,
   * and a run without it gives the same findings.
   */
  prepare?: (corpus: Corpus, context: CheckContext) => void;
}

/** A whole file the generator owns. */
interface GeneratedFile {
  path: string;
  content: string;
  /**
   * For a JSON file the generator only splices into: the members it writes (object keys from the
   * root). The rest of the file is its authors' text, and a finding there stays where it is.
   */
  members?: ReadonlyArray<readonly string[]>;
}

/** The text between the markers of region `region` in the markdown file `path`. */
export interface GeneratedRegionContent {
  path: string;
  region: string;
  content: string;
  /**
   * For a table: the first cells of rows the generator could not produce and has reported why
   * (a header whose Meaning cannot be chosen). In a file generated whole, such a row is left as it
   * is rather than reported a second time as drift.
   */
  undecided?: string[];
}

export type GeneratorOutput = GeneratedFile | GeneratedRegionContent;

export interface GenerationContext {
  /**
   * The text a corpus file will have once the generators that ran before this one are applied
   * (its current text when none touches it; undefined when it does not exist). A generator
   * that digests other outputs, such as the corpus stamp, reads through this and runs last.
   */
  contentOf(path: string): string | Buffer | undefined;
  /**
   * Every path the generators that ran before this one write (whole files and files with
   * regions), including files that do not exist yet: with the corpus's own paths, the set of
   * files there will be once they are written.
   */
  plannedPaths?(): string[];
}

/** Whether a generator's input (a file, or a folder written with a trailing `/`) covers `file`. */
export function inputCovers(input: string, file: string): boolean {
  return input === file || (input.endsWith('/') && file.startsWith(input));
}

export interface Generator {
  id: string;
  summary: string;
  /** Root-relative paths it reads (one ending in `/`: every file under that folder); a finding about a failed generator points at the first. */
  inputs: string[];
  /** Runs after every other generator, seeing their outputs through `context.contentOf`. */
  runsLast?: boolean;
  /**
   * Its output follows every edit of its inputs' text (a digest, a word count), so `check --fix`
   * refreshes it even when it was stale before the fixes, as `generate` would.
   */
  followsEveryEdit?: boolean;
  /** What its own findings say, by message id, as a gate's `messages` (`generate/<id>` findings). */
  messages?: Readonly<Record<string, string>>;
  /** Pure: never writes; reports what stops it (an invalid registry, a header without a description). */
  generate(corpus: Corpus, report: Report, context: GenerationContext): GeneratorOutput[];
}

const RULE_ID = /^[a-z][a-z0-9-]*\/[a-z][a-z0-9-]*$/;

export function defineCheck(check: Check): Check {
  if (!RULE_ID.test(check.id)) throw new Error(`check id "${check.id}" is not family/name`);
  return Object.freeze(check);
}

export function defineGenerator(generator: Generator): Generator {
  if (!/^[a-z][a-z0-9-]*$/.test(generator.id)) throw new Error(`generator id "${generator.id}" is not kebab-case`);
  return Object.freeze(generator);
}

export function isRegionContent(output: GeneratorOutput): output is GeneratedRegionContent {
  return 'region' in output;
}

/**
 * A rule the run reports itself, not a gate: generated drift, region markers, a generator's own
 * trouble, `--fix`'s bound. Its findings are worded from `messages` by id, as a gate's are, so
 * the words live in one place and code decides by id and data.
 */
export interface CoreRule {
  readonly id: string;
  readonly summary: string;
  readonly severity: Severity;
  readonly messages: Readonly<Record<string, string>>;
}

/** A finding of a core rule: its message id and data, never its words. */
export type CoreFinding = Omit<Finding, 'message' | 'messageId'> & { messageId: string };

/**
 * A report that words a finding given a message id and no message from `owner.messages`; an id the
 * map does not have is the toolchain bug it is, reported as such with the id and data kept.
 * `kind` names the owner in that report (a gate, a generator).
 */
export function wordedReport(
  owner: { readonly id: string; readonly messages?: Readonly<Record<string, string>> },
  kind: string,
  report: Report,
): Report {
  return (finding) => {
    if (finding.message !== undefined) return report(finding);
    const template = finding.messageId !== undefined ? owner.messages?.[finding.messageId] : undefined;
    if (template !== undefined) return report({ ...finding, message: renderMessage(template, finding.data) });
    report({
      ...finding,
      message: `${kind} ${owner.id} reported message id ${JSON.stringify(finding.messageId ?? '')}, which its messages do not word`,
      hint: 'this is a toolchain bug; please report it',
    });
  };
}

/** A report for `rule`'s findings that words each from the rule's messages. */
export function coreReport(
  rule: Pick<CoreRule, 'id' | 'severity' | 'messages'>,
  sink: Diagnostic[],
): (finding: CoreFinding) => void {
  const { id } = rule;
  const report = collector(id, rule.severity, sink);
  return (finding) => {
    const template = rule.messages[finding.messageId];
    // A message id without words is a bug of this module: said as such rather than printed blank.
    report({
      ...finding,
      message:
        template !== undefined
          ? renderMessage(template, finding.data)
          : `${id} reported message id ${JSON.stringify(finding.messageId)}, which its messages do not word`,
    });
  };
}
