import type { Corpus, DataFile } from '../../core/model/index.js';
import { resolveSection } from '../../core/registries/index.js';
import { defineCheck } from '../../core/run/index.js';
import type { Report } from '../../core/output/index.js';
import { eventCodemap, protocolDomains, protocolTypes } from '../../core/registries/index.js';
import { classifyMention, eventNameMentions } from '../../core/registries/index.js';
import { validateRegistry } from '../../core/schemas/index.js';
import { normativeHomes, normativeTextProblems } from '../../core/registries/index.js';
import { DECLARATION_PATH, isObject, reportRegistryCounts } from '../../core/registries/index.js';
import { locate, type PathSegment } from '../../core/model/index.js';
import { closest } from '../../core/output/index.js';

const SCHEMA_PATH = 'spec/v2/declaration.schema.json';
const CORE_DOCUMENT = /^spec\/v2\/(core|ext)\/.+\.md$/;

export default defineCheck({
  id: 'declaration/registry',
  summary: 'Declaration families resolve to headings and agree with the Normative home lines; orgs are registered, not reserved; every vendor event name in the corpus has a registered org',
  description:
    'A family\'s normative-home obligation is met as upstream\'s predicate meets it (scripts/check-v2-normative-home.mjs): every spec/v2 home names the family in its Normative home line, and the homes together, read as one, have a paragraph that names the family with a MUST, SHOULD or MAY. An extension README co-points and carries no obligation; a home the corpus does not hold (a v1 document) may, so then nothing is said. Counts of the declaration in prose ("Metadata keys (17)", "Core families (72)", "N core families") are compared with it.',
  severity: 'error',
  run(corpus, report) {
    const file = corpus.data(DECLARATION_PATH);
    if (!file) return;
    for (const finding of validateRegistry(corpus, DECLARATION_PATH, SCHEMA_PATH)) report({ ...finding, hint: 'fix the registry so that it matches its schema' });
    if (!isObject(file.value)) return;
    const declaration = view(file.value);
    checkOrgs(corpus, file, declaration, report);
    checkFamilies(corpus, file, declaration, report);
    checkNormativeText(corpus, file, report);
    checkProfilesAndAliases(file, declaration, report);
    checkVendorNames(corpus, declaration, report);
    checkCounts(corpus, report);
  },
});

interface Family {
  index: number;
  key: string;
  anchor: string;
  section: string | undefined;
}

interface Declaration {
  reserved: string[];
  orgs: Record<string, Record<string, unknown>>;
  families: Family[];
  metadata: Array<{ index: number; key: string; section: string | undefined }>;
  profiles: Array<{ index: number; id: string; families: string[]; metadata: string[]; profiles: string[] }>;
  aliases: Array<{ key: string; family: string }>;
}

/** What can be read of the registry, whether or not it matches its schema: members of the wrong type read as absent. */
function view(value: Record<string, unknown>): Declaration {
  const strings = (list: unknown) => (Array.isArray(list) ? list.filter((item): item is string => typeof item === 'string') : []);
  const records = (list: unknown) => (Array.isArray(list) ? list.filter(isObject) : []);
  // Rows keep their index in the file, so a row that cannot be read does not shift the locations of the others.
  const indexed = (list: unknown): Array<[Record<string, unknown>, number]> => (Array.isArray(list) ? list.flatMap((item, index) => (isObject(item) ? [[item, index] as [Record<string, unknown>, number]] : [])) : []);
  return {
    reserved: strings(value.reservedOrgs),
    orgs: Object.fromEntries(Object.entries(isObject(value.extensions) ? value.extensions : {}).filter((entry): entry is [string, Record<string, unknown>] => isObject(entry[1]))),
    families: indexed(value.families).filter(([family]) => typeof family.key === 'string').map(([family, index]) => ({ index, key: String(family.key), anchor: String(family.anchor), section: typeof family.section === 'string' ? family.section : undefined })),
    metadata: indexed(value.metadata).filter(([entry]) => typeof entry.key === 'string').map(([entry, index]) => ({ index, key: String(entry.key), section: typeof entry.section === 'string' ? entry.section : undefined })),
    profiles: records(value.profiles).map((profile, index) => {
      const predicate = isObject(profile.predicate) ? profile.predicate : {};
      return { index, id: String(profile.id), families: strings(predicate.families), metadata: strings(predicate.metadata), profiles: strings(predicate.profiles) };
    }),
    aliases: Object.entries(isObject(value.aliases) ? value.aliases : {}).map(([key, alias]) => ({ key, family: isObject(alias) ? String(alias.family) : '' })),
  };
}

function at(file: DataFile, path: PathSegment[], prefer: 'key' | 'value' = 'value') {
  return { file: file.path, ...locate(file, path, prefer) };
}

function checkOrgs(corpus: Corpus, file: DataFile, declaration: Declaration, report: Report): void {
  const codemap = eventCodemap(corpus);
  const domains = codemap ? protocolDomains(codemap) : new Set<string>();
  for (const org of Object.keys(declaration.orgs)) {
    if (declaration.reserved.includes(org)) {
      report({ ...at(file, ['extensions', org], 'key'), messageId: 'reserved-org-registered', data: { org }, message: `org \`${org}\` is registered under extensions but listed in reservedOrgs; a reserved org is never registered`, hint: `remove \`${org}\` from extensions` });
    }
    if (domains.has(org)) {
      report({
        ...at(file, ['extensions', org], 'key'),
        messageId: 'org-is-domain', data: { org }, message: `org \`${org}\` is also a protocol event domain, so \`${org}.<name>\` could be a vendor type or a protocol type`,
        hint: 'an org never shares a name with a domain of spec/v2/event-codemap.json: choose another org name',
      });
    }
  }
  // The protocol holds `example`, written `"reserved": true` (the schema admits no other form).
  const example = declaration.orgs.example;
  if (!example) {
    report({ ...at(file, ['extensions'], 'key'), messageId: 'no-example-org', message: 'the org registry has no `example`, which the protocol holds for documentation and conformance', hint: 'register `example` with "reserved": true' });
  } else if (example.reserved !== true) {
    const member = 'reserved' in example ? 'reserved' : undefined;
    report({ ...at(file, member ? ['extensions', 'example', member] : ['extensions', 'example'], member ? 'value' : 'key'), messageId: 'example-assignable', message: '`example` is held by the protocol and is never assignable to a vendor', hint: 'set "reserved": true' });
  }
}

function checkFamilies(corpus: Corpus, file: DataFile, declaration: Declaration, report: Report): void {
  const byKey = new Map<string, Family>();
  for (const family of declaration.families) {
    const twin = byKey.get(family.key);
    if (twin) report({ ...at(file, ['families', family.index, 'key']), messageId: 'duplicate-family', data: { family: family.key }, message: `family \`${family.key}\` is declared twice (also at line ${locate(file, ['families', twin.index], 'value').line})`, hint: 'keep one entry' });
    else byKey.set(family.key, family);
  }

  // Where each live family's section leads, and whether that document names it as a normative home.
  const homes = new Map<string, Set<string>>();
  for (const markdown of corpus.markdownFiles()) {
    if (!CORE_DOCUMENT.test(markdown.path)) continue;
    const names = normativeHomes(markdown);
    homes.set(markdown.path, new Set(names.map((name) => name.family)));
    for (const name of names) {
      const family = byKey.get(name.family);
      if (!family) continue; // an unknown family is docs/structure's finding
      const where = () => ({ file: markdown.path, line: name.line, column: name.column });
      if (family.anchor === 'deleted' || family.section === undefined) {
        report({ ...where(), messageId: 'home-names-retired', data: { family: family.key }, message: `Normative home names \`${family.key}\`, a retired family`, hint: 'remove it from the Normative home line' });
        continue;
      }
      const resolved = resolveSection(corpus, family.section);
      // A section whose document has no such heading may be a `§ key` entry mistyped: it is reported at the declaration.
      if (resolved.form === 'heading' && (resolved.anchorExists || !resolved.documentExists) && resolved.file !== markdown.path) {
        report({
          ...where(),
          messageId: 'home-in-other-document', data: { family: family.key, section: family.section }, message: `Normative home names \`${family.key}\`, but its section in ${DECLARATION_PATH} is ${family.section}, in another document`,
          hint: `point the family's section at a heading of this document, or take \`${family.key}\` off this line`,
        });
      }
    }
  }

  for (const family of declaration.families) {
    if (family.section === undefined) continue;
    const resolved = resolveSection(corpus, family.section);
    const where = () => at(file, ['families', family.index, 'section']);
    if (!resolved.documentExists) {
      report({ ...where(), messageId: 'section-not-in-corpus', data: { family: family.key, target: resolved.file }, message: `section ${family.section} of \`${family.key}\` names ${resolved.file}, which is not a document of the corpus`, hint: 'a section is `core/<document>.md#<anchor>` or `ext/<key>/` (a directory with a README.md), relative to spec/v2/' });
      continue;
    }
    if (!resolved.anchorExists) {
      const suggestion = closest(resolved.anchor, resolved.anchors);
      report({ ...where(), messageId: 'section-no-heading', data: { family: family.key, target: resolved.file }, message: `section ${family.section} of \`${family.key}\` names no heading of ${resolved.file}`, hint: suggestion ? `did you mean #${suggestion}?` : 'link to a heading of that document' });
      continue;
    }
    if (resolved.form === 'heading' && !homes.get(resolved.file)?.has(family.key)) {
      report({
        ...where(),
        messageId: 'home-line-missing', data: { family: family.key, target: resolved.file }, message: `\`${family.key}\` has its section in ${resolved.file}, whose Normative home line does not name it`,
        hint: `add \`${family.key}\` to the "> **Normative home:**" line of ${resolved.file}`,
      });
    }
  }

  for (const entry of declaration.metadata) {
    // A metadata key need not point into the prose; one that does must land on a heading.
    if (entry.section === undefined) continue;
    const resolved = resolveSection(corpus, entry.section);
    if (resolved.documentExists && resolved.anchorExists) continue;
    const suggestion = resolved.documentExists ? closest(resolved.anchor, resolved.anchors) : undefined;
    report({
      ...at(file, ['metadata', entry.index, 'section']),
      messageId: 'metadata-section', data: { key: entry.key, target: resolved.file }, message: `section ${entry.section} of metadata key \`${entry.key}\` ${resolved.documentExists ? `names no heading of ${resolved.file}` : `names ${resolved.file}, which is not a document of the corpus`}`,
      hint: suggestion ? `did you mean #${suggestion}?` : 'link to a heading that states the key',
    });
  }
}

function checkProfilesAndAliases(file: DataFile, declaration: Declaration, report: Report): void {
  const live = new Set(declaration.families.filter((family) => family.anchor !== 'deleted').map((family) => family.key));
  const retired = new Set(declaration.families.filter((family) => family.anchor === 'deleted').map((family) => family.key));
  const metadata = new Set(declaration.metadata.map((entry) => entry.key));
  const ids = new Set<string>();
  for (const profile of declaration.profiles) {
    if (ids.has(profile.id)) report({ ...at(file, ['profiles', profile.index, 'id']), messageId: 'duplicate-profile', data: { profile: profile.id }, message: `profile \`${profile.id}\` is declared twice`, hint: 'keep one entry' });
    ids.add(profile.id);
  }
  for (const profile of declaration.profiles) {
    profile.families.forEach((key, i) => {
      if (live.has(key)) return;
      report({
        ...at(file, ['profiles', profile.index, 'predicate', 'families', i]),
        messageId: 'profile-requires-unknown', data: { profile: profile.id, family: key }, message: retired.has(key) ? `profile \`${profile.id}\` requires \`${key}\`, a retired family` : `profile \`${profile.id}\` requires \`${key}\`, which is not a family`,
        hint: retired.has(key) ? 'a retired family binds nothing: take it out of the predicate' : suggest(key, live),
      });
    });
    profile.metadata.forEach((key, i) => {
      if (!metadata.has(key)) report({ ...at(file, ['profiles', profile.index, 'predicate', 'metadata', i]), messageId: 'profile-requires-metadata', data: { profile: profile.id, key }, message: `profile \`${profile.id}\` requires metadata key \`${key}\`, which is not declared`, hint: suggest(key, metadata) });
    });
    profile.profiles.forEach((id, i) => {
      if (!ids.has(id) || id === profile.id) {
        report({ ...at(file, ['profiles', profile.index, 'predicate', 'profiles', i]), messageId: 'profile-includes', data: { profile: profile.id, included: id }, message: id === profile.id ? `profile \`${id}\` includes itself` : `profile \`${profile.id}\` includes \`${id}\`, which is not a profile`, hint: suggest(id, ids) });
      }
    });
  }
  for (const alias of declaration.aliases) {
    if (!live.has(alias.family)) report({ ...at(file, ['aliases', alias.key, 'family']), messageId: 'alias-dead', data: { alias: alias.key, family: alias.family }, message: `alias \`${alias.key}\` points at \`${alias.family}\`, which is not a live family`, hint: suggest(alias.family, live) });
  }
}

/** A vendor event type or envelope kind named anywhere in the corpus needs a registered, non-reserved org. */
function checkVendorNames(corpus: Corpus, declaration: Declaration, report: Report): void {
  const codemap = eventCodemap(corpus);
  const registered = Object.keys(declaration.orgs).filter((org) => !declaration.reserved.includes(org));
  const registries = {
    protocolTypes: new Set(codemap ? protocolTypes(codemap) : []),
    domains: codemap ? protocolDomains(codemap) : new Set<string>(),
    frames: new Set(codemap?.frames ?? []),
    registeredOrgs: new Set(registered),
    reservedOrgs: new Set(declaration.reserved),
  };
  for (const mention of eventNameMentions(corpus)) {
    const verdict = classifyMention(mention, registries);
    if (verdict.kind !== 'vendor') continue;
    const what = mention.role === 'type' ? 'vendor event type' : 'envelope kind';
    const where = (): { file: string; line: number; column: number } => ({ file: mention.file, line: mention.line, column: mention.column });
    if (declaration.reserved.includes(verdict.org)) {
      report({ ...where(), messageId: 'reserved-org-used', data: { name: mention.name, org: verdict.org }, message: `${what} \`${mention.name}\` is under \`${verdict.org}.\`, which is reserved and never a vendor org`, hint: `use an org registered in ${DECLARATION_PATH}: ${registered.join(', ')}` });
    } else if (!registered.includes(verdict.org)) {
      const suggestion = closest(verdict.org, registered);
      report({
        ...where(),
        messageId: 'unregistered-org', data: { name: mention.name, org: verdict.org }, message: `${what} \`${mention.name}\` names the org \`${verdict.org}\`, which is not registered in the extensions of ${DECLARATION_PATH}`,
        hint: suggestion ? `did you mean \`${suggestion}\`?` : `register the org, or use one that is: ${registered.join(', ')}`,
      });
    }
  }
}

function suggest(name: string, candidates: Iterable<string>): string {
  const suggestion = closest(name, candidates);
  return suggestion ? `did you mean \`${suggestion}\`?` : 'correct the name, or declare it';
}

/** Counts of the declaration in prose ("Metadata keys (17)", "Core families (72)") are its sizes. */
function checkCounts(corpus: Corpus, report: Report): void {
  for (const registry of ['metadata', 'core-families', 'ext-families'] as const) reportRegistryCounts(corpus, registry, report);
}

/** Each core family's normativeText names complete homes (core/registries/normative-home.ts says what complete is). */
function checkNormativeText(corpus: Corpus, file: DataFile, report: Report): void {
  const families = isObject(file.value) && Array.isArray(file.value.families) ? file.value.families : [];
  families.forEach((family, index) => {
    if (!isObject(family) || family.anchor !== 'core' || typeof family.key !== 'string' || !Array.isArray(family.normativeText)) return;
    for (const problem of normativeTextProblems(corpus, family.key, family.normativeText)) {
      report({ ...at(file, ['families', index, 'normativeText', problem.entry]), messageId: 'normative-text', message: problem.message, hint: problem.hint });
    }
  });
}
