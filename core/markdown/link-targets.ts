/** What a link in a corpus document points at, resolved against the corpus root. */
import path from 'node:path';

export type LinkTarget =
  | { kind: 'external' }
  | { kind: 'same-file'; fragment: string }
  | { kind: 'local'; target: string; fragment: string | undefined; escapesRoot: boolean };

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

export function resolveLink(fromFile: string, url: string): LinkTarget {
  if (SCHEME.test(url) || url.startsWith('//')) return { kind: 'external' };
  const hash = url.indexOf('#');
  const rawPath = hash === -1 ? url : url.slice(0, hash);
  const fragment = hash === -1 ? undefined : safeDecode(url.slice(hash + 1));
  const pathPart = safeDecode(rawPath.split('?')[0] ?? '');
  if (pathPart === '') return { kind: 'same-file', fragment: fragment ?? '' };
  const joined = pathPart.startsWith('/') ? pathPart.slice(1) : path.posix.join(path.posix.dirname(fromFile), pathPart);
  const target = path.posix.normalize(joined);
  const escapesRoot = target === '..' || target.startsWith('../');
  return { kind: 'local', target: target === '.' ? '' : target, fragment, escapesRoot };
}

/** The relative URL from one corpus file to another, as an author would write it. */
export function relativeUrl(fromFile: string, toFile: string): string {
  const relative = path.posix.relative(path.posix.dirname(fromFile), toFile);
  return relative === '' ? path.posix.basename(toFile) : relative;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
