/**
 * Corpus text in a markdown report (a job summary, a pull-request comment), after the escaping
 * every sink gets: it must read as the text it is, never as markup, a table cell break or an HTML tag.
 */
import { visible } from '../escape.js';

/**
 * Plain text: every character markdown could take as markup is backslash-escaped (GFM allows it
 * before any ASCII punctuation), and so are the `:` of `scheme://` and the `.` of `www.`, which
 * would otherwise become links. Characters that are markup only at the start of a line (`-`, `+`,
 * `1.`) are left: this text never starts one.
 */
export function mdText(text: string): string {
  return visible(text)
    .replace(/[\\`*_[\]<>#|~&@]/g, (c) => `\\${c}`)
    .replace(/:(?=\/\/)/g, '\\:')
    .replace(/\b(www)\./gi, '$1\\.');
}

/**
 * A code span that holds `text` whatever backticks it has: a fence longer than its longest run,
 * padded with spaces. Only `|` needs escaping inside, for a table cell.
 */
export function mdCode(text: string): string {
  const shown = visible(text).replace(/\|/g, '\\|');
  const longest = Math.max(0, ...[...shown.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return longest > 0 || shown.startsWith(' ') ? `${fence} ${shown} ${fence}` : `${fence}${shown}${fence}`;
}
