import { type Corpus, type DataFile, Location, type PathSegment, isObject } from '../../core/model/index.js';
import { countRegionId, defineCheck } from '../../core/run/index.js';
import type { Report } from '../../core/output/index.js';
import {
  CODE_GRAMMAR,
  ERRORS_PATH,
  ERRORS_SCHEMA_PATH,
  errorsSchemaViolations,
  retriableByDefault,
  COUNT_MESSAGES,
  mentionIndex,
  registryCountFindings,
} from '../../core/registries/index.js';
import { corpusSchemas, expectedSchemaId, REGISTRY_MESSAGES } from '../../core/schemas/index.js';

const MAJOR_MINOR = /^(\d+)\.(\d+)$/;
const COUNT_REGION = countRegionId('errors');

export default defineCheck({
  id: 'errors/registry',
  summary: `${ERRORS_PATH} is well formed (unique snake_case codes, 4xx/5xx statuses, retriability confirmed against the status class, major.minor since, provenance), and prose states its size only through count/errors`,
  description:
    'A count of the registry is held to the house rule that counts are generated (`count/errors` regions, DESIGN.md) only where the corpus keeps count regions; a corpus that keeps none, a line a generator writes ("Generated from `spec/v2/errors.json` (N codes; …)") and any document under a "generated … do not edit" banner are held only to the count being right, as is a count in a string of a JSON or YAML document (a schema\'s "107 registered codes"). "N codes", "N registered codes" and "N rows" in a sentence that names the registry are counts; a count in quotation marks, or of a list at hand ("the 3 codes below"), is not.',
  severity: 'error',
  fixable: true,
  messages: {
    'malformed-code': 'code "{{code}}" is not snake_case (lowercase letters and digits, words joined by "_")',
    'vendor-code-registered':
      '"{{code}}" is shaped like a vendor code; vendor codes are never registered, a vendor returns them under its own org',
    'duplicate-code': 'code "{{code}}" is registered twice (first on line {{firstLine}})',
    'status-type': 'httpStatus of {{code}} is {{written}}, not a number',
    'status-range': 'httpStatus {{status}} of {{code}} is not a 4xx or 5xx status',
    'retriable-unconfirmed':
      '{{code}} is a {{status}} and retriable; a 4xx other than 429 is not retriable unless the row says why',
    'not-retriable-unconfirmed':
      '{{code}} is a {{status}} and not retriable; a 429 or 5xx is retriable unless the row says why not',
    'needless-exception':
      '{{code}} records a retriableException, but a {{status}} is retriable by default, as the row says',
    'needless-exception-not-retriable':
      '{{code}} records a retriableException, but a {{status}} is not retriable by default, as the row says',
    'since-form': 'since {{since}} of {{code}} is not a major.minor version',
    'no-provenance': '{{code}} has no provenance: "{{field}}" is missing',
    'empty-provenance': '{{code}} has no provenance: "{{field}}" is empty',
    'deprecated-to-itself': '{{code}} is deprecated in favour of itself',
    'deprecated-to-unknown': '{{code}} is deprecated in favour of "{{replacedBy}}", which is not registered',
    'details-do-not-compile': 'the details schema of {{code}} does not compile: {{problem}}',
    'count-by-hand': '"{{phrase}}" states the size of the error registry by hand; counts of a registry are generated',
    'count-by-hand-wrong':
      '"{{phrase}}" states the size of the error registry by hand (it has {{count}}); counts of a registry are generated',
    ...COUNT_MESSAGES,
    ...REGISTRY_MESSAGES,
  },
  run(corpus, report) {
    const file = corpus.data(ERRORS_PATH);
    if (!file || !isObject(file.value)) return;
    const registry = file.value;
    const rows = Array.isArray(registry.rows) ? registry.rows : [];
    const covered = new Set<string>();
    const at = (segments: PathSegment[], subject = `/${segments.join('/')}`): Location => {
      covered.add(subject);
      return Location.pointer(file, segments, 'key');
    };

    checkRows(corpus, file, rows, registry, at, report);

    // The schema's own findings, except where a rule above already said it better.
    for (const violation of errorsSchemaViolations(corpus) ?? []) {
      if (covered.has(violation.subject)) continue;
      // Worded from REGISTRY_MESSAGES, which this gate's messages hold.
      const { subject: _subject, message: _message, ...finding } = violation;
      report({ ...finding, hint: `see ${ERRORS_SCHEMA_PATH}` });
    }

    checkCounts(corpus, rows.length, report);
  },
});

type At = (segments: PathSegment[], subject?: string) => Location;

function checkRows(
  corpus: Corpus,
  file: DataFile,
  rows: unknown[],
  registry: Record<string, unknown>,
  at: At,
  report: Report,
): void {
  const vendorPattern = safeRegExp(registry.vendorCodePattern);
  // A row confirms a retriability against its status class with `retriableException`; a registry
  // whose row schema has no such member (upstream's closes its rows) has no way to, so the
  // status-class default is not held against it.
  const canConfirm = rowsAdmit(corpus, 'retriableException');
  const firstRow = new Map<string, number>();
  const codes = new Set(rows.flatMap((row) => (isObject(row) && typeof row.code === 'string' ? [row.code] : [])));

  rows.forEach((row, index) => {
    if (!isObject(row)) return;
    const code = typeof row.code === 'string' ? row.code : undefined;
    const name = code ?? `row ${index}`;

    if (code !== undefined) {
      if (!CODE_GRAMMAR.test(code)) {
        const vendorShaped = code.includes('.') || vendorPattern?.test(code) === true;
        report({
          location: at(['rows', index, 'code']),
          messageId: vendorShaped ? 'vendor-code-registered' : 'malformed-code',
          data: { code },
          hint: vendorShaped
            ? 'remove the row, or register a snake_case code instead'
            : `for example "${snakeCase(code)}"`,
        });
      }
      const first = firstRow.get(code);
      if (first === undefined) {
        firstRow.set(code, index);
      } else {
        const firstLine = Location.pointer(file, ['rows', first, 'code'], 'key').resolve().line;
        report({
          location: at(['rows', index, 'code'], `/rows/${index}/code#unique`),
          messageId: 'duplicate-code',
          data: { code, firstLine },
          hint: 'a code has one row; merge the two',
        });
      }
    }

    const status = row.httpStatus;
    const statusValid = typeof status === 'number' && Number.isInteger(status) && status >= 400 && status <= 599;
    if (!statusValid && row.httpStatus !== undefined) {
      if (typeof status === 'string' || typeof status !== 'number') {
        const number = typeof status === 'string' && /^\d+$/.test(status.trim()) ? Number(status.trim()) : undefined;
        report({
          location: at(['rows', index, 'httpStatus']),
          messageId: 'status-type',
          data: {
            code: name,
            written:
              typeof status === 'string'
                ? `the string ${JSON.stringify(status)}`
                : status === null
                  ? 'null'
                  : Array.isArray(status)
                    ? 'an array'
                    : `a ${typeof status}`,
          },
          hint:
            number !== undefined
              ? `write it as the number ${number}, without quotes`
              : 'write the HTTP status as a number, 400 to 599',
        });
      } else {
        report({
          location: at(['rows', index, 'httpStatus']),
          messageId: 'status-range',
          data: { code: name, status: JSON.stringify(status) },
          hint: 'an error answers with a client (4xx) or server (5xx) status',
        });
      }
    }

    if (statusValid && typeof row.retriable === 'boolean' && canConfirm) {
      const expected = retriableByDefault(status);
      const exception = typeof row.retriableException === 'string' && row.retriableException.trim() !== '';
      if (row.retriable !== expected && !exception) {
        report({
          location: at(['rows', index, 'retriable']),
          severity: 'warning',
          messageId: row.retriable ? 'retriable-unconfirmed' : 'not-retriable-unconfirmed',
          data: { code: name, status },
          hint: 'confirm it with "retriableException": "<why>" on the row, or correct "retriable"',
        });
      }
      if (row.retriable === expected && row.retriableException !== undefined) {
        report({
          location: at(['rows', index, 'retriableException']),
          severity: 'warning',
          messageId: expected ? 'needless-exception' : 'needless-exception-not-retriable',
          data: { code: name, status },
          hint: 'remove "retriableException"',
        });
      }
    }

    if (row.since !== undefined) {
      const since = typeof row.since === 'string' ? MAJOR_MINOR.exec(row.since) : null;
      if (!since) {
        report({
          location: at(['rows', index, 'since']),
          messageId: 'since-form',
          data: { code: name, since: JSON.stringify(row.since) },
          hint: 'for example "2.0"',
        });
      }
      // The registry's `version` is the version of its format, not a release, so `since` is not compared with it.
    }

    for (const field of ['source', 'statusSource'] as const) {
      const value = row[field];
      if (typeof value === 'string' && value.trim() !== '') continue;
      if (value !== undefined && typeof value !== 'string') continue;
      report({
        location: at(['rows', index, field]),
        messageId: value === undefined ? 'no-provenance' : 'empty-provenance',
        data: { code: name, field },
        hint:
          field === 'source'
            ? 'name the prose that defines the code, e.g. "spec/v2/core/runs.md §Snapshot"'
            : 'say where the status comes from: "v1 prose", "v1 convention", "v2 decision", ...',
      });
    }

    const replacedBy = isObject(row.deprecated) ? row.deprecated.replacedBy : undefined;
    if (typeof replacedBy === 'string' && (replacedBy === code || !codes.has(replacedBy))) {
      report({
        location: at(['rows', index, 'deprecated', 'replacedBy'], `/rows/${index}/deprecated/replacedBy#registered`),
        messageId: replacedBy === code ? 'deprecated-to-itself' : 'deprecated-to-unknown',
        data: { code: name, replacedBy: String(replacedBy) },
        hint:
          replacedBy === code
            ? 'name the code that replaces it, or drop "replacedBy"'
            : `register "${replacedBy}", or name a registered code`,
      });
    }

    if (isObject(row.details)) {
      const problem = detailsCompileProblem(corpus, code ?? String(index), row.details);
      if (problem)
        report({
          location: at(['rows', index, 'details'], `/rows/${index}/details#compile`),
          messageId: 'details-do-not-compile',
          data: { code: name, problem },
          hint: 'correct the details schema; it is compiled as the envelope holds it, beside schemas/v2/',
        });
    }
  });
}

/**
 * Compiles a row's details schema as the envelope will hold it: beside the envelope, so relative
 * `$ref`s (`ids.schema.json#/$defs/runId`) resolve against schemas/v2/.
 */
function detailsCompileProblem(corpus: Corpus, code: string, details: Record<string, unknown>): string | undefined {
  const id = expectedSchemaId(`schemas/v2/error-envelope.details.${code}.json`, corpus.config.layout.schemaIds);
  return corpusSchemas(corpus).compileProblem(details, id);
}

/**
 * The counts of the registry the corpus writes (the mention index's, in prose and in the strings
 * of JSON/YAML documents). Where the corpus keeps its counts in count regions (its house style),
 * one written by hand in prose is a finding even when right, with the fix that makes it a region.
 * A corpus that keeps none, a line its generator writes ("Generated from `errors.json` (97 codes;
 * …)") and a string of a JSON/YAML document (which holds no region) are held only to the count
 * being right.
 */
function checkCounts(corpus: Corpus, count: number, report: Report): void {
  const regionsInUse = corpus
    .markdownFiles()
    .some((markdown) => markdown.regions.some((region) => region.id.startsWith('count/')));
  for (const { count: mention, ...finding } of registryCountFindings(corpus, 'errors')) {
    if (
      finding.messageId === 'count-wrong' &&
      regionsInUse &&
      mention.kind === 'markdown' &&
      !mention.generatorLine &&
      mention.form === 'prose'
    )
      continue;
    report(finding);
  }
  if (!regionsInUse) return;
  for (const mention of mentionIndex(corpus).counts) {
    if (
      mention.registry !== 'errors' ||
      mention.kind !== 'markdown' ||
      mention.generatorLine ||
      mention.form !== 'prose'
    )
      continue;
    report({
      file: mention.file,
      ...mention.place(),
      messageId: mention.value === count ? 'count-by-hand' : 'count-by-hand-wrong',
      data: { phrase: mention.phrase, count, written: mention.value },
      hint: 'run `openwop-spec check --fix` to make it the count/errors region',
      fix: {
        start: mention.start,
        end: mention.end,
        text: `<!-- generated: ${COUNT_REGION} -->**${count}**<!-- /generated: ${COUNT_REGION} -->`,
      },
    });
  }
}

function rowsAdmit(corpus: Corpus, member: string): boolean {
  const schema = corpus.data(ERRORS_SCHEMA_PATH)?.value;
  if (!isObject(schema)) return true;
  const rows = isObject(schema.properties) && isObject(schema.properties.rows) ? schema.properties.rows : undefined;
  let row: unknown = rows?.items;
  const ref = isObject(row) && typeof row.$ref === 'string' ? /^#\/\$defs\/([^/]+)$/.exec(row.$ref)?.[1] : undefined;
  if (ref !== undefined) row = isObject(schema.$defs) ? schema.$defs[ref] : undefined;
  if (!isObject(row)) return true;
  return row.additionalProperties !== false || (isObject(row.properties) && Object.hasOwn(row.properties, member));
}

function safeRegExp(pattern: unknown): RegExp | undefined {
  if (typeof pattern !== 'string') return undefined;
  try {
    return new RegExp(pattern, 'u');
  } catch {
    return undefined;
  }
}

function snakeCase(code: string): string {
  return code
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .replace(/^(\d)/, 'e$1');
}
