/**
 * Text from the corpus (file names, headings, quoted values) reaches terminals and CI logs through
 * every report. A control character or an escape sequence there could repaint the terminal or
 * forge a line of output, and a newline would split one finding over two; each is shown as its
 * escape instead. Bidirectional controls and invisible characters are included: they reorder or
 * hide what the reader sees (Trojan Source), so a name that looks like another cannot pass as it.
 *
 * A CI log is a sink of its own: the GitHub runner reads `::command::` at the start of a line and,
 * in its legacy parser, `##[command]` anywhere in one. Both are broken up wherever untrusted text
 * is printed, and `stopCommands` wraps a whole report that is not meant to hold any command.
 */
import { randomBytes } from 'node:crypto';

/** C0 and C1 controls, DEL, line and paragraph separators, bidi controls, zero-width and invisible formatting characters. */
const UNSAFE =
  /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]/g;

/** The runner's command markers, as they may appear inside untrusted text. */
const COMMAND_MARKERS = /##\[|::/g;

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** For plain-text formats: each unsafe character as `\n`, `\t` or `\u001b`; `##[` and `::` broken up. */
export function visible(text: string): string {
  return text
    .replace(UNSAFE, (c) => NAMED[c] ?? unicodeEscape(c))
    .replace(COMMAND_MARKERS, (marker) => (marker === '::' ? ':\\u003a' : '#\\u0023['));
}

/**
 * For JSON output: JSON.stringify escapes U+0000–U+001F already but leaves C1 controls, separators,
 * bidi and invisible characters raw, and the runner's markers. They occur only inside strings, so
 * escaping them keeps the same value.
 */
export function safeJson(json: string): string {
  return json
    .replace(JSON_UNSAFE, unicodeEscape)
    .replace(COMMAND_MARKERS, (marker) => (marker === '::' ? ':\\u003a' : '#\\u0023['));
}

const JSON_UNSAFE =
  /[\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]/g;

function unicodeEscape(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/**
 * `text` for a GitHub Actions log when it must carry no workflow command at all (a stylish or
 * JSON report, a diff): wrapped in `::stop-commands::TOKEN` … `::TOKEN::`, with a token nobody can
 * guess, as GitHub advises for untrusted output. Outside Actions the text is returned as it is.
 */
export function stopCommands(text: string, env: NodeJS.ProcessEnv = process.env): string {
  if (env.GITHUB_ACTIONS !== 'true' || text === '') return text;
  const token = `openwop-spec-${randomBytes(16).toString('hex')}`;
  return `::stop-commands::${token}\n${text}${text.endsWith('\n') ? '' : '\n'}::${token}::\n`;
}

/** `text` with every line made `visible`: the line breaks stay, each line's unsafe characters and runner markers are escaped. */
export function visibleLines(text: string): string {
  return text
    .split('\n')
    .map((line) => visible(line))
    .join('\n');
}

/**
 * A message of the tool on stderr (a verb's progress, a refusal, a summary): it may carry a path
 * or a name from the corpus or its journal, so every line is made visible, as a report's are.
 */
export function note(text: string): void {
  process.stderr.write(visibleLines(text));
}
