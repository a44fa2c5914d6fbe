/**
 * `$ref` resolution inside and across corpus JSON/YAML files, with the site of every value kept, so
 * that a finding about a referenced object can point at the line where that object is written.
 * Only the corpus model is read: a reference to a file outside the corpus does not resolve.
 */
import { type Corpus, type DataFile, isObject, Location, walkData, type PathSegment, type PointerLocation } from '../model/index.js';
import { schemaPathsOfId } from '../schemas/index.js';
import { resolveLink } from '../markdown/index.js';

/** A place in a data file: the file and the path of keys and indexes to a value. */
export interface Site {
  file: DataFile;
  segments: PathSegment[];
}

/** Where a site is written: a pointer location into its file. */
export type SiteLocation = PointerLocation;

/** The site's location (resolved only when a finding reports it: the OpenAPI model records one for every declaration). */
export function siteLocation(site: Site, prefer: 'key' | 'value' = 'key'): SiteLocation {
  return Location.pointer(site.file, site.segments, prefer);
}

export function child(site: Site, ...segments: PathSegment[]): Site {
  return { file: site.file, segments: [...site.segments, ...segments] };
}

export type RefResult = { ok: true; site: Site; value: unknown } | { ok: false; message: string; external?: boolean };

/** The plain-object test of core/model, under the name this folder's readers use. */
export const isRecord = isObject;

export function refOf(value: unknown): string | undefined {
  return isRecord(value) && typeof value.$ref === 'string' ? value.$ref : undefined;
}

/** The value at `segments` inside `value`, or undefined. */
function valueAt(value: unknown, segments: readonly PathSegment[]): unknown {
  let node = value;
  for (const segment of segments) {
    if (Array.isArray(node) && typeof segment === 'number') node = node[segment];
    else if (isRecord(node) && typeof segment === 'string' && Object.hasOwn(node, segment)) node = node[segment];
    else return undefined;
  }
  return node;
}

/**
 * Resolves one `$ref` written at `from` (never following a chain: see `follow`). A reference is a
 * relative URL against the file it is written in, or an absolute URL under a `$id` base of the
 * layout naming a corpus file by its `$id`; its fragment is a JSON pointer.
 */
export function resolveRef(corpus: Corpus, from: Site, ref: string): RefResult {
  let targetPath: string;
  let fragment: string | undefined;
  if (ref.startsWith('#')) {
    targetPath = from.file.path;
    fragment = ref.slice(1);
  } else if (schemaPathsOfId(ref, corpus.config.layout.schemaIds).length > 0) {
    const hash = ref.indexOf('#');
    const candidates = schemaPathsOfId(ref, corpus.config.layout.schemaIds);
    targetPath = candidates.find((candidate) => corpus.get(candidate) !== undefined) ?? (candidates[0] as string);
    fragment = hash === -1 ? undefined : ref.slice(hash + 1);
  } else {
    const target = resolveLink(from.file.path, ref);
    if (target.kind === 'external') return { ok: false, external: true, message: `${ref} is outside the corpus and cannot be resolved offline` };
    if (target.kind === 'same-file') {
      targetPath = from.file.path;
    } else {
      if (target.escapesRoot) return { ok: false, message: `${ref} points outside the corpus root` };
      targetPath = target.target;
    }
    fragment = target.fragment;
  }
  const file = corpus.data(targetPath);
  if (!file) {
    return { ok: false, message: corpus.get(targetPath) ? `${targetPath} (the target of ${ref}) is not a JSON or YAML document that parses` : `${targetPath} (the target of ${ref}) does not exist` };
  }
  const pointer = fragment === undefined ? '' : safeDecode(fragment);
  if (pointer !== '' && !pointer.startsWith('/')) {
    const anchored = findAnchor(file.value, pointer);
    if (anchored) return { ok: true, site: { file, segments: anchored }, value: valueAt(file.value, anchored) };
    return { ok: false, message: `${targetPath} has no $anchor "${pointer}" (the fragment of ${ref})` };
  }
  const segments = pointerSegments(file.value, pointer);
  if (!segments) return { ok: false, message: `${targetPath} has nothing at #${pointer} (the target of ${ref})` };
  return { ok: true, site: { file, segments }, value: valueAt(file.value, segments) };
}

export interface Followed {
  /** The object at the end of the chain. */
  site: Site;
  value: unknown;
  /** The `$ref` objects passed through, outermost first (empty when `value` was not a reference). */
  via: Site[];
}

/** Follows a chain of `$ref`s to a value that is not one; a cycle or a dangling link is a failure. */
export function follow(corpus: Corpus, site: Site, value: unknown): { ok: true; followed: Followed } | { ok: false; site: Site; message: string; cycle: boolean } {
  const via: Site[] = [];
  const seen = new Set<string>();
  let currentSite = site;
  let current = value;
  for (let ref = refOf(current); ref !== undefined; ref = refOf(current)) {
    const key = `${currentSite.file.path}#${currentSite.segments.join('/')}`;
    if (seen.has(key)) return { ok: false, site, message: `the chain of $refs starting here comes back to ${ref}`, cycle: true };
    seen.add(key);
    via.push(currentSite);
    const result = resolveRef(corpus, currentSite, ref);
    if (!result.ok) return { ok: false, site: currentSite, message: result.message, cycle: false };
    currentSite = result.site;
    current = result.value;
  }
  return { ok: true, followed: { site: currentSite, value: current, via } };
}

/** Every `$ref` string in a document, with the site of the object that carries it. */
export function collectRefs(file: DataFile): Array<{ site: Site; ref: string }> {
  const found: Array<{ site: Site; ref: string }> = [];
  walkData(file.value, (value, segments) => {
    // What a `$ref` member holds is its target's, not a place of this document.
    if (segments[segments.length - 1] === '$ref') return 'skip';
    if (isRecord(value) && typeof value.$ref === 'string') found.push({ site: { file, segments }, ref: value.$ref });
  });
  return found;
}

/** A JSON pointer as path segments (array indexes as numbers), or undefined when nothing is there. */
function pointerSegments(root: unknown, pointer: string): PathSegment[] | undefined {
  if (pointer === '') return [];
  const segments: PathSegment[] = [];
  let node = root;
  for (const raw of pointer.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) {
      if (!/^(0|[1-9]\d*)$/.test(token) || Number(token) >= node.length) return undefined;
      segments.push(Number(token));
      node = node[Number(token)];
    } else if (isRecord(node) && Object.hasOwn(node, token)) {
      segments.push(token);
      node = node[token];
    } else {
      return undefined;
    }
  }
  return segments;
}

function findAnchor(root: unknown, name: string): PathSegment[] | undefined {
  let found: PathSegment[] | undefined;
  walkData(root, (value, segments) => {
    if (!isRecord(value) || (value.$anchor !== name && value.$dynamicAnchor !== name)) return;
    found = segments;
    return 'stop';
  });
  return found;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * Path segments typed by what they index in `root`: a number for an array, a string for a map, so
 * that a map key that looks numeric (a response status, `'200'`) still locates.
 */
export function typedSegments(root: unknown, segments: readonly PathSegment[]): PathSegment[] {
  const typed: PathSegment[] = [];
  let node = root;
  for (const segment of segments) {
    const next = Array.isArray(node) ? Number(segment) : String(segment);
    typed.push(next);
    node = Array.isArray(node) ? node[next as number] : isRecord(node) ? node[next as string] : undefined;
  }
  return typed;
}
