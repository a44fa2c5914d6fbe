import { Location, type PathSegment } from '../../core/model/index.js';
import { DECLARATION_PATH, eventCodemap, protocolDomains, readDeclaration } from '../../core/registries/index.js';
import { defineCheck } from '../../core/run/index.js';

export default defineCheck({
  id: 'declaration/orgs',
  summary:
    'The org registry of spec/v2/declaration.json registers no reserved org and no protocol event domain, and holds `example` reserved for the protocol',
  severity: 'error',
  messages: {
    'reserved-org-registered':
      'org `{{org}}` is registered under extensions but listed in reservedOrgs; a reserved org is never registered',
    'org-is-domain':
      'org `{{org}}` is also a protocol event domain, so `{{org}}.<name>` could be a vendor type or a protocol type',
    'no-example-org': 'the org registry has no `example`, which the protocol holds for documentation and conformance',
    'example-assignable': '`example` is held by the protocol and is never assignable to a vendor',
  },
  run(corpus, report) {
    const file = corpus.data(DECLARATION_PATH);
    const declaration = readDeclaration(corpus);
    if (!file || !declaration) return;
    const at = (path: PathSegment[], prefer: 'key' | 'value' = 'value') => ({
      location: Location.pointer(file, path, prefer),
    });
    const codemap = eventCodemap(corpus);
    const domains = codemap ? protocolDomains(codemap) : new Set<string>();
    for (const org of Object.keys(declaration.orgs)) {
      if (declaration.reserved.includes(org))
        report({
          ...at(['extensions', org], 'key'),
          messageId: 'reserved-org-registered',
          data: { org },
          hint: `remove \`${org}\` from extensions`,
        });
      if (domains.has(org))
        report({
          ...at(['extensions', org], 'key'),
          messageId: 'org-is-domain',
          data: { org },
          hint: 'an org never shares a name with a domain of spec/v2/event-codemap.json: choose another org name',
        });
    }
    // The protocol holds `example`, written `"reserved": true` (the schema admits no other form).
    const example = declaration.orgs.example;
    if (!example) {
      report({
        ...at(['extensions'], 'key'),
        messageId: 'no-example-org',
        hint: 'register `example` with "reserved": true',
      });
    } else if (example.reserved !== true) {
      const member = 'reserved' in example ? 'reserved' : undefined;
      report({
        ...at(member ? ['extensions', 'example', member] : ['extensions', 'example'], member ? 'value' : 'key'),
        messageId: 'example-assignable',
        hint: 'set "reserved": true',
      });
    }
  },
});
