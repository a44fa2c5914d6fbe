/**
 * The prose facts of the error registry, as generated regions: the codes-by-status table, the
 * retriable list, and every `count/errors` in any document, so prose cannot drift from the registry.
 */
import { countOutputs, regionOutputs, defineGenerator } from '../core/run/index.js';
import { compareStrings } from '../core/output/index.js';
import { ERRORS_PATH, ERRORS_SCHEMA_PATH, readErrorsRegistry, type ErrorRow } from '../core/registries/index.js';
import { renderTable } from '../core/markdown/index.js';

const CODES_BY_STATUS_REGION = 'errors/codes-by-status';
const RETRIABLE_REGION = 'errors/retriable';
const ERRORS_COUNT = 'errors';

export default defineGenerator({
  id: 'errors-doc',
  summary: `Fills the ${CODES_BY_STATUS_REGION} table, the ${RETRIABLE_REGION} list and every count/${ERRORS_COUNT} region from ${ERRORS_PATH}`,
  inputs: [ERRORS_PATH, ERRORS_SCHEMA_PATH],
  messages: {
    'registry-invalid':
      'the errors regions (table, retriable list, counts) are not regenerated: {{target}} has {{problems}} schema problem(s), the first here',
  },
  generate(corpus, report) {
    const read = readErrorsRegistry(corpus);
    if (read.state === 'absent') return [];
    if (read.state === 'invalid') {
      // The located findings are reported once, by errors/registry and generate/error-envelope.
      const first = read.findings[0];
      report({
        file: ERRORS_PATH,
        line: first?.line,
        column: first?.column,
        messageId: 'registry-invalid',
        data: { target: ERRORS_PATH, problems: read.findings.length },
      });
      return [];
    }
    const { rows } = read.registry;
    return [
      ...regionOutputs(corpus, CODES_BY_STATUS_REGION, codesByStatusTable(rows), [ERRORS_PATH]),
      ...regionOutputs(corpus, RETRIABLE_REGION, retriableList(rows)),
      ...countOutputs(corpus, ERRORS_COUNT, rows.length),
    ];
  },
});

/** Ordered by status, then by code (code-unit order, whatever the locale). */
export function codesByStatusTable(rows: readonly ErrorRow[]): string {
  const sorted = [...rows].sort((a, b) => a.httpStatus - b.httpStatus || compareStrings(a.code, b.code));
  return renderTable(
    ['Code', 'Status', 'Retriable'],
    sorted.map((row) => [`\`${row.code}\``, String(row.httpStatus), row.retriable ? 'yes' : 'no']),
  );
}

export function retriableList(rows: readonly ErrorRow[]): string {
  const codes = rows
    .filter((row) => row.retriable)
    .map((row) => row.code)
    .sort(compareStrings);
  return codes.length === 0 ? 'none' : codes.map((code) => `\`${code}\``).join(', ');
}
