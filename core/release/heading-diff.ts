/**
 * Headings that other documents cite, renamed or removed between two releases. A heading's
 * anchor is the address of a deep link (`events.md#the-envelope`) and its text or number the
 * target of a section citation (`events.md §"The envelope"`); readers outside the corpus hold
 * such links too, so a cited heading that no longer answers to its anchor breaks them however
 * the corpus's own links were updated. Only citations from other documents count: a document's
 * links into itself move with it.
 */
import path from 'node:path';
import { dataStringLinks, dataStrings, Location, type Corpus, type MarkdownFile } from '../model/index.js';
import { compareStrings } from '../output/index.js';
import { resolveCitation, resolveLink, scopedCitations, type MarkdownHeading } from '../markdown/index.js';

export interface LostHeading {
  file: string;
  heading: MarkdownHeading;
  /** The heading in its place in the new release, when the document kept its outline and only this one's anchor changed. */
  renamedTo: MarkdownHeading | undefined;
  /** `file:line` of each citation in the old release. */
  citedFrom: string[];
}

/** The cited headings of `files` (changed documents both releases have) whose anchor the new release lost. */
export function lostCitedHeadings(before: Corpus, after: Corpus, files: Iterable<string>): LostHeading[] {
  const lost: Array<{ file: string; heading: MarkdownHeading; renamedTo: MarkdownHeading | undefined }> = [];
  for (const file of files) {
    const was = before.markdown(file);
    const is = after.markdown(file);
    if (!was || !is) continue;
    const sameOutline =
      was.headings.length === is.headings.length &&
      was.headings.every((heading, i) => heading.depth === is.headings[i]?.depth);
    was.headings.forEach((heading, i) => {
      if (is.anchors.has(heading.slug)) return;
      const successor = sameOutline ? is.headings[i] : undefined;
      lost.push({ file, heading, renamedTo: successor && !was.anchors.has(successor.slug) ? successor : undefined });
    });
  }
  if (lost.length === 0) return [];
  const citations = citationsOf(before);
  return lost
    .map(({ file, heading, renamedTo }) => ({
      file,
      heading,
      renamedTo,
      citedFrom: [...new Set(citations.get(`${file}#${heading.slug}`) ?? [])].sort(compareStrings),
    }))
    .filter((entry) => entry.citedFrom.length > 0);
}

/** `file#slug` -> where other documents cite it: deep links, and section citations that name the document. */
function citationsOf(corpus: Corpus): Map<string, string[]> {
  const cited = new Map<string, string[]>();
  const note = (target: string, slug: string, where: string) =>
    cited.set(`${target}#${slug}`, [...(cited.get(`${target}#${slug}`) ?? []), where]);
  const documents = corpus.markdownFiles();
  const byPath = new Map(documents.map((document) => [document.path, document]));
  for (const document of documents) {
    for (const link of document.links) {
      const target = resolveLink(document.path, link.url);
      if (target.kind === 'local' && target.fragment && target.target !== document.path)
        note(target.target, target.fragment, `${document.path}:${link.line}`);
    }
    for (const citation of scopedCitations(document.text)) {
      if (citation.scope.kind !== 'document' || citation.scope.via !== 'text' || citation.part) continue;
      const target = documentNamed(document, citation.scope.name, byPath);
      if (!target || target.path === document.path) continue;
      const heading = resolveCitation(target.headings, citation);
      if (heading)
        note(target.path, heading.slug, `${document.path}:${Location.text(document, citation.start).resolve().line}`);
    }
  }
  // The strings of JSON and YAML documents cite too: an OpenAPI description's links, a registry's `source`.
  for (const file of corpus.dataFiles()) {
    for (const link of dataStringLinks(file)) {
      const target = resolveLink(file.path, link.url);
      if (target.kind === 'local' && target.fragment)
        note(target.target, target.fragment, `${file.path}:${link.location.resolve().line}`);
    }
    const from = { path: file.path };
    for (const string of dataStrings(file, (value) => value.includes('§'))) {
      for (const citation of scopedCitations(string.value)) {
        if (citation.scope.kind !== 'document' || citation.scope.via !== 'text' || citation.part) continue;
        const target = documentNamed(from, citation.scope.name, byPath);
        const heading = target && resolveCitation(target.headings, citation);
        if (target && heading)
          note(
            target.path,
            heading.slug,
            `${file.path}:${Location.pointer(file, string.path).chars(citation.start, citation.end).resolve().line}`,
          );
      }
    }
  }
  return cited;
}

/** The document a citation names by path or file name: relative to the citing one, from the root, or the one of that name. */
function documentNamed(
  from: Pick<MarkdownFile, 'path'>,
  name: string,
  byPath: ReadonlyMap<string, MarkdownFile>,
): MarkdownFile | undefined {
  const relative = path.posix.normalize(path.posix.join(path.posix.dirname(from.path), name));
  const direct = byPath.get(relative) ?? byPath.get(name);
  if (direct) return direct;
  if (name.includes('/')) return [...byPath.values()].find((document) => document.path.endsWith(`/${name}`));
  const sameName = [...byPath.values()].filter((document) => path.posix.basename(document.path) === name);
  return sameName.length === 1
    ? sameName[0]
    : sameName.find((document) => path.posix.dirname(document.path) === path.posix.dirname(from.path));
}
