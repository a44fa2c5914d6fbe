import { Location, type PathSegment } from '../../core/model/index.js';
import { closest } from '../../core/output/index.js';
import { DECLARATION_PATH, readDeclaration, resolveSection } from '../../core/registries/index.js';
import { defineCheck } from '../../core/run/index.js';

export default defineCheck({
  id: 'declaration/sections',
  summary:
    'The section of every family and metadata key of spec/v2/declaration.json leads to a document of the corpus and a heading of it',
  description:
    'A section is `core/<document>.md#<anchor>` or `ext/<key>/` (a directory with a README.md), relative to spec/v2/. A metadata key need not point into the prose; one that does must land on a heading.',
  severity: 'error',
  messages: {
    'section-not-in-corpus':
      'section {{section}} of `{{family}}` names {{target}}, which is not a document of the corpus',
    'section-no-heading': 'section {{section}} of `{{family}}` names no heading of {{target}}',
    'metadata-section': 'section {{section}} of metadata key `{{key}}` names no heading of {{target}}',
    'metadata-section-not-in-corpus':
      'section {{section}} of metadata key `{{key}}` names {{target}}, which is not a document of the corpus',
  },
  run(corpus, report) {
    const file = corpus.data(DECLARATION_PATH);
    const declaration = readDeclaration(corpus);
    if (!file || !declaration) return;
    const at = (path: PathSegment[]) => ({ location: Location.pointer(file, path, 'value') });
    for (const family of declaration.families) {
      if (family.section === undefined) continue;
      const resolved = resolveSection(corpus, family.section);
      const data = { family: family.key, section: family.section, target: resolved.file };
      if (!resolved.documentExists) {
        report({
          ...at(['families', family.index, 'section']),
          messageId: 'section-not-in-corpus',
          data,
          hint: 'a section is `core/<document>.md#<anchor>` or `ext/<key>/` (a directory with a README.md), relative to spec/v2/',
        });
      } else if (!resolved.anchorExists) {
        const suggestion = closest(resolved.anchor, resolved.anchors);
        report({
          ...at(['families', family.index, 'section']),
          messageId: 'section-no-heading',
          data,
          hint: suggestion ? `did you mean #${suggestion}?` : 'link to a heading of that document',
        });
      }
    }
    for (const entry of declaration.metadata) {
      if (entry.section === undefined) continue;
      const resolved = resolveSection(corpus, entry.section);
      if (resolved.documentExists && resolved.anchorExists) continue;
      const suggestion = resolved.documentExists ? closest(resolved.anchor, resolved.anchors) : undefined;
      report({
        ...at(['metadata', entry.index, 'section']),
        messageId: resolved.documentExists ? 'metadata-section' : 'metadata-section-not-in-corpus',
        data: { key: entry.key, section: entry.section, target: resolved.file },
        hint: suggestion ? `did you mean #${suggestion}?` : 'link to a heading that states the key',
      });
    }
  },
});
