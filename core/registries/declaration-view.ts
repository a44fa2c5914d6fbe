/**
 * spec/v2/declaration.json as the declaration rules read it, whether or not it matches its schema:
 * members of the wrong type read as absent, and rows keep their index in the file, so that a row
 * that cannot be read does not shift the locations of the others.
 */
import { type Corpus, isObject } from '../model/index.js';
import { DECLARATION_PATH } from './views.js';

export interface DeclaredFamily {
  index: number;
  key: string;
  anchor: string;
  section: string | undefined;
}

export interface DeclarationView {
  reserved: string[];
  orgs: Record<string, Record<string, unknown>>;
  families: DeclaredFamily[];
  metadata: Array<{ index: number; key: string; section: string | undefined }>;
  profiles: Array<{ index: number; id: string; families: string[]; metadata: string[]; profiles: string[] }>;
  aliases: Array<{ key: string; family: string }>;
}

/** What can be read of the registry's value. */
function declarationView(value: Record<string, unknown>): DeclarationView {
  const strings = (list: unknown) =>
    Array.isArray(list) ? list.filter((item): item is string => typeof item === 'string') : [];
  const records = (list: unknown) => (Array.isArray(list) ? list.filter(isObject) : []);
  // Rows keep their index in the file, so a row that cannot be read does not shift the locations of the others.
  const indexed = (list: unknown): Array<[Record<string, unknown>, number]> =>
    Array.isArray(list)
      ? list.flatMap((item, index) => (isObject(item) ? [[item, index] as [Record<string, unknown>, number]] : []))
      : [];
  return {
    reserved: strings(value.reservedOrgs),
    orgs: Object.fromEntries(
      Object.entries(isObject(value.extensions) ? value.extensions : {}).filter(
        (entry): entry is [string, Record<string, unknown>] => isObject(entry[1]),
      ),
    ),
    families: indexed(value.families)
      .filter(([family]) => typeof family.key === 'string')
      .map(([family, index]) => ({
        index,
        key: String(family.key),
        anchor: String(family.anchor),
        section: typeof family.section === 'string' ? family.section : undefined,
      })),
    metadata: indexed(value.metadata)
      .filter(([entry]) => typeof entry.key === 'string')
      .map(([entry, index]) => ({
        index,
        key: String(entry.key),
        section: typeof entry.section === 'string' ? entry.section : undefined,
      })),
    profiles: records(value.profiles).map((profile, index) => {
      const predicate = isObject(profile.predicate) ? profile.predicate : {};
      return {
        index,
        id: String(profile.id),
        families: strings(predicate.families),
        metadata: strings(predicate.metadata),
        profiles: strings(predicate.profiles),
      };
    }),
    aliases: Object.entries(isObject(value.aliases) ? value.aliases : {}).map(([key, alias]) => ({
      key,
      family: isObject(alias) ? String(alias.family) : '',
    })),
  };
}

/** The view of the corpus's declaration, or undefined while it is absent or not an object. */
export function readDeclaration(corpus: Corpus): DeclarationView | undefined {
  const value = corpus.data(DECLARATION_PATH)?.value;
  return isObject(value) ? declarationView(value) : undefined;
}

/** The families by key: the first entry of a key declared twice (declaration/entries reports the second). */
export function familiesByKey(declaration: DeclarationView): Map<string, DeclaredFamily> {
  const byKey = new Map<string, DeclaredFamily>();
  for (const family of declaration.families) if (!byKey.has(family.key)) byKey.set(family.key, family);
  return byKey;
}
