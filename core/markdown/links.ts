/**
 * Moving markdown from one file to another (a description of an OpenAPI document into a table of a
 * core document) changes what its relative links are relative to; this rewrites them so each one
 * still names the same target.
 */
import { relativeUrl, resolveLink } from './link-targets.js';
import { parseMarkdown } from './parse.js';

export function rebaseLinks(markdown: string, fromFile: string, toFile: string): string {
  if (!markdown.includes('](') && !markdown.includes(']:')) return markdown;
  const edits: Array<{ start: number; end: number; text: string }> = [];
  for (const link of parseMarkdown(markdown).links) {
    const target = resolveLink(fromFile, link.url);
    if (target.kind !== 'local' || target.escapesRoot) continue;
    const start = link.node.position?.start.offset;
    const end = link.node.position?.end.offset;
    if (start === undefined || end === undefined) continue;
    const source = markdown.slice(start, end);
    const at = source.lastIndexOf(link.url);
    if (at === -1) continue; // written with escapes; leave it as it is rather than guess
    const hash = link.url.indexOf('#');
    const rebased = relativeUrl(toFile, target.target) + (hash === -1 ? '' : link.url.slice(hash));
    edits.push({ start: start + at, end: start + at + link.url.length, text: rebased });
  }
  let text = markdown;
  for (const edit of edits.sort((a, b) => b.start - a.start))
    text = text.slice(0, edit.start) + edit.text + text.slice(edit.end);
  return text;
}
