/**
 * SARIF 2.1.0, for code-scanning dashboards: one run, the rules that ran (each with its page in the
 * rules reference), one result per finding with a stable fingerprint; suppressed findings carry
 * their suppression, and against a findings baseline every result its baselineState.
 */
import type { Diagnostic } from '../diagnostics.js';
import { safeJson } from '../escape.js';
import type { Reporter } from './types.js';

/** The key of our fingerprint in partialFingerprints: versioned, so a change of scheme is a new key. */
const FINGERPRINT_KEY = 'openwopSpecFinding/v1';

export const sarif: Reporter = (diagnostics, { rules, toolName, toolVersion, summary }) => {
  const ruleIds = [...new Set([...rules.map((r) => r.id), ...diagnostics.map((d) => d.rule)])].sort();
  const meta = new Map(rules.map((r) => [r.id, r]));
  const index = new Map(ruleIds.map((id, i) => [id, i]));
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: toolName,
            version: toolVersion,
            informationUri: 'https://github.com/openwop/spec',
            rules: ruleIds.map((id) => {
              const rule = meta.get(id);
              return {
                id,
                shortDescription: { text: rule?.summary ?? id },
                ...(rule?.description ? { fullDescription: { text: rule.description } } : {}),
                ...(rule?.helpUri ? { helpUri: rule.helpUri } : {}),
                defaultConfiguration: { level: rule?.severity === 'warning' ? 'warning' : 'error' },
                ...(rule?.fixable !== undefined ? { properties: { fixable: rule.fixable } } : {}),
              };
            }),
          },
        },
        originalUriBaseIds: { '%SRCROOT%': { description: { text: 'The corpus root' } } },
        results: diagnostics.map((d) => result(d, index.get(d.rule) ?? 0, summary.baseline !== undefined)),
      },
    ],
  };
  return `${safeJson(JSON.stringify(log, null, 2))}\n`;
};

function result(d: Diagnostic, ruleIndex: number, withBaseline: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {
    ruleId: d.rule,
    ruleIndex,
    level: d.severity,
    message: { text: d.hint ? `${d.message} (hint: ${d.hint})` : d.message },
    locations: [location(d.file, d)],
  };
  if (d.related?.length) {
    out.relatedLocations = d.related.map((r, id) => ({
      id,
      ...location(r.file, r),
      ...(r.message ? { message: { text: r.message } } : {}),
    }));
  }
  if (d.fingerprint) out.partialFingerprints = { [FINGERPRINT_KEY]: d.fingerprint };
  if (d.suppression)
    out.suppressions = [{ kind: d.suppression.kind, status: 'accepted', justification: d.suppression.justification }];
  if (withBaseline) out.baselineState = d.baselineState ?? 'new';
  return out;
}

function location(
  file: string,
  at: { line: number; column: number; endLine?: number; endColumn?: number },
): Record<string, unknown> {
  const region: Record<string, number> = { startLine: at.line, startColumn: at.column };
  if (at.endLine !== undefined) region.endLine = at.endLine;
  if (at.endColumn !== undefined) region.endColumn = at.endColumn;
  return { physicalLocation: { artifactLocation: { uri: relativeUri(file), uriBaseId: '%SRCROOT%' }, region } };
}

/**
 * A root-relative path as a relative URI reference (RFC 3986): in each segment, whatever is not a
 * path character is percent-encoded, so that `#`, `?`, `%`, spaces and controls in a file name
 * stay part of the path (encodeURI leaves `#` and `?`, which would make the rest a fragment or a
 * query and put the alert on another file). `:` is encoded too: in a first segment it would read
 * as a scheme.
 */
function relativeUri(file: string): string {
  return file
    .split('/')
    .map((segment) =>
      encodeURIComponent(segment).replace(/%(2[146-9BC]|3B|3D|40)/g, (escape) => decodeURIComponent(escape)),
    )
    .join('/');
}
