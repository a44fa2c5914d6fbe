import { ASYNCAPI_PATH, isRecord, OPENAPI_PATH } from '../../core/api/index.js';
import type { DataFile } from '../../core/model/index.js';
import { Location } from '../../core/model/index.js';
import { defineCheck } from '../../core/run/index.js';

/** A scheme both documents define by one name is one credential: its definitions agree but for their prose. */
export default defineCheck({
  id: 'api/shared-schemes',
  summary: 'A security scheme the OpenAPI and AsyncAPI documents both define by one name has one definition: they differ at most in description, summary and x- extensions',
  severity: 'error',
  messages: {
    'security-scheme-differs': 'security scheme `{{scheme}}` differs from the one of {{target}} in {{differing}}; one credential has one definition',
  },
  run(corpus, report) {
    const openapi = corpus.data(OPENAPI_PATH);
    const asyncapi = corpus.data(ASYNCAPI_PATH);
    if (!asyncapi) return;
    const left = schemesOf(openapi);
    for (const [name, scheme] of Object.entries(schemesOf(asyncapi))) {
      if (!(name in left)) continue;
      const a = substance(left[name]);
      const b = substance(scheme);
      const differing = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((key) => JSON.stringify(a[key]) !== JSON.stringify(b[key])).sort();
      if (differing.length === 0) continue;
      report({
        location: Location.pointer(asyncapi, ['components', 'securitySchemes', name], 'key'),
        messageId: 'security-scheme-differs', data: { scheme: name, target: OPENAPI_PATH, differing: differing.join(', ') },
        hint: `copy ${differing.join(', ')} from ${OPENAPI_PATH} components.securitySchemes.${name}`,
      });
    }
  },
});

function schemesOf(file: DataFile | undefined): Record<string, unknown> {
  return file && isRecord(file.value) && isRecord(file.value.components) && isRecord(file.value.components.securitySchemes) ? file.value.components.securitySchemes : {};
}

/** A scheme without its prose: what a client must present. */
function substance(scheme: unknown): Record<string, unknown> {
  if (!isRecord(scheme)) return {};
  return Object.fromEntries(Object.entries(scheme).filter(([key]) => key !== 'description' && key !== 'summary' && !key.startsWith('x-')));
}
