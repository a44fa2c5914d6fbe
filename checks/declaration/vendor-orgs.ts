import { closest } from '../../core/output/index.js';
import {
  classifyMention,
  DECLARATION_PATH,
  eventCodemap,
  eventNameMentions,
  protocolDomains,
  protocolTypes,
  readDeclaration,
} from '../../core/registries/index.js';
import { defineCheck } from '../../core/run/index.js';

/** A vendor event type or envelope kind named anywhere in the corpus needs a registered, non-reserved org. */
export default defineCheck({
  id: 'declaration/vendor-orgs',
  summary:
    'Every vendor event type and envelope kind the corpus names is under an org registered in spec/v2/declaration.json, and never under a reserved one',
  severity: 'error',
  messages: {
    'reserved-org-used': '{{what}} `{{name}}` is under `{{org}}.`, which is reserved and never a vendor org',
    'unregistered-org':
      '{{what}} `{{name}}` names the org `{{org}}`, which is not registered in the extensions of {{registry}}',
  },
  run(corpus, report) {
    const declaration = readDeclaration(corpus);
    if (!declaration) return;
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
      const where = { file: mention.file, line: mention.line, column: mention.column };
      if (declaration.reserved.includes(verdict.org)) {
        report({
          ...where,
          messageId: 'reserved-org-used',
          data: { name: mention.name, org: verdict.org, what },
          hint: `use an org registered in ${DECLARATION_PATH}: ${registered.join(', ')}`,
        });
      } else if (!registered.includes(verdict.org)) {
        const suggestion = closest(verdict.org, registered);
        report({
          ...where,
          messageId: 'unregistered-org',
          data: { name: mention.name, org: verdict.org, what, registry: DECLARATION_PATH },
          hint: suggestion
            ? `did you mean \`${suggestion}\`?`
            : `register the org, or use one that is: ${registered.join(', ')}`,
        });
      }
    }
  },
});
