/**
 * Text from the corpus (file names, headings, quoted values) reaches terminals and CI logs through
 * every report. A control character or an escape sequence there could repaint the terminal or
 * forge a line of output, and a newline would split one finding over two; each is shown as its
 * escape instead. Bidirectional overrides are included: they reorder what the reader sees.
 */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** For plain-text formats: each unsafe character as `\n`, `\t` or `\u001b`. */
export function visible(text: string): string {
  return text.replace(UNSAFE, (c) => NAMED[c] ?? unicodeEscape(c));
}

/**
 * For JSON output: JSON.stringify escapes U+0000–U+001F already but leaves C1 controls and
 * separators raw. They occur only inside strings, so escaping them keeps the same value.
 */
export function safeJson(json: string): string {
  return json.replace(JSON_UNSAFE, unicodeEscape);
}

const JSON_UNSAFE = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

function unicodeEscape(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}
