import { defineCheck } from '../../core/run/index.js';
import type { Finding, Report } from '../../core/output/index.js';
import {
  mentionIndex,
  nearMiss,
  type LocatedCodeMention,
  DECLARATION_PATH,
  ERRORS_PATH,
  readErrorsRegistry,
  vendorCodeRule,
  CITES_V1,
  markdownReadsAsV1,
  type ErrorRow,
  type VendorCodeRule,
} from '../../core/registries/index.js';
import type { Corpus } from '../../core/model/index.js';
import { isGeneratedDocument } from '../../core/markdown/index.js';

/**
 * The API documents whose `error` enums and descriptions name codes: the canonical ones and the
 * seams kept beside them, whose descriptions name codes a host returns all the same. Response
 * examples and `x-openwop-error-codes` of the canonical documents are api/error-responses' to
 * check: it resolves `$ref`s and knows the status of every response, so reading them here too
 * would only say the same thing twice.
 */
const SEAMS = 'api/seams-v2.yaml';
const API_DOCUMENTS = ['api/v2/openapi.yaml', 'api/v2/asyncapi.yaml', SEAMS];
/** The prose: every markdown document of the specification. */
const PROSE = /^spec\/.*\.md$/;

export default defineCheck({
  id: 'errors/used-codes-registered',
  summary:
    "An error code the prose names (beside a status, in a list after one, in a code table, in an envelope example) or an API document names (in a description, a 4xx/5xx response's description, an error enum) is registered, with its registered status, or is a well-formed vendor code; a near miss of a registered code in a sentence about an error is a finding",
  description:
    "A code is read where the text makes it one: beside a status, in a list that continues one (`409` `a`, `b` or `c`), in a code table, an envelope example, an `error` enum, and every snake_case code span of a 4xx or 5xx response's description. A snake_case word elsewhere in a sentence about an error (a parameter's description, prose) is a code when the corpus writes that word as a code in one of those forms somewhere, or when it nearly spells a registered one (a word more or fewer, or one word misspelt), and the finding says which.",
  severity: 'error',
  messages: {
    'status-differs': '{{written}} {{code}}: the registry gives {{code}} the status {{registered}}',
    'retriable-differs':
      '{{code}} is marked retriable: {{written}} here, but the registry says retriable: {{registered}}',
    unregistered: '"{{code}}" is not a registered error code',
    'near-miss': '"{{code}}" is not a registered error code; did you mean {{suggestion}}?',
    'reserved-prefix':
      '"{{code}}" uses the reserved prefix openwop.; it is neither a registered code nor a vendor code',
    'unknown-org': '"{{code}}" is shaped like a vendor code, but {{org}} is not an org registered in {{declaration}}',
  },
  run(corpus, report) {
    const read = readErrorsRegistry(corpus);
    // Without a valid registry there is nothing to hold the codes to; errors/registry says why.
    if (read.state !== 'valid') return;
    const rows = new Map(read.registry.rows.map((row) => [row.code, row]));
    const vendor = compileVendorRule(vendorCodeRule(corpus, read.registry));
    const mentions = mentionIndex(corpus).codes;
    const written = writtenAsCodes(mentions);
    for (const located of mentions) {
      if (!judged(corpus, located)) continue;
      // A word taken for a code only because the corpus writes it as one elsewhere is not read where
      // its text quotes v1 (a seam that serves a v1 document's codes verbatim).
      // (A registered code is judged the same either way; its place is read only for a finding.)
      const promoted =
        located.mention.form === 'candidate' && !rows.has(located.mention.code) && written.has(located.mention.code);
      judge(located, rows, vendor, promoted && quotesV1(corpus, located) ? EMPTY : written, report);
    }
  },
});

/**
 * Which mentions of the index this gate judges: the specification's prose, not a document
 * generated whole (it restates the registry; where it disagrees, generated/drift names each row);
 * every JSON/YAML document but the registry, and the envelope examples of the canonical API
 * documents only through api/error-responses.
 */
function judged(corpus: Corpus, { file, mention }: LocatedCodeMention): boolean {
  const markdown = corpus.markdown(file);
  if (markdown) return PROSE.test(file) && !isGeneratedDocument(markdown);
  if (file === ERRORS_PATH) return false;
  return !(mention.form === 'example' && API_DOCUMENTS.includes(file) && file !== SEAMS);
}

/**
 * The words the corpus writes as error codes somewhere (beside a status, in a code table, an
 * envelope example or an `error` enum): in a sentence about an error elsewhere, the same word is
 * that code too, registered or not (a parameter description that says a host MUST return it, beside
 * the 400 response that answers with it).
 */
function writtenAsCodes(mentions: readonly LocatedCodeMention[]): ReadonlySet<string> {
  return new Set(mentions.filter(({ mention }) => mention.form !== 'candidate').map(({ mention }) => mention.code));
}

const EMPTY: ReadonlySet<string> = new Set();

/**
 * Whether the text around a mention is read in v1's terms: in markdown its sentence, section or
 * column cites v1; in a JSON/YAML document, the description or comment that holds it does.
 */
function quotesV1(corpus: Corpus, { file, mention }: LocatedCodeMention): boolean {
  const markdown = corpus.markdown(file);
  if (markdown) return markdownReadsAsV1(markdown, mention.start);
  const text = corpus.data(file)?.text ?? '';
  const from = Math.max(...['description', 'summary', '$comment'].map((key) => text.lastIndexOf(key, mention.start)));
  return from >= 0 && CITES_V1.test(text.slice(from, mention.start));
}

interface CompiledVendorRule extends VendorCodeRule {
  regex: RegExp | undefined;
}

function compileVendorRule(rule: VendorCodeRule): CompiledVendorRule {
  let regex: RegExp | undefined;
  try {
    regex = rule.pattern === undefined ? undefined : new RegExp(rule.pattern, 'u');
  } catch {
    regex = undefined;
  }
  return { ...rule, regex };
}

function judge(
  { file, mention, place }: LocatedCodeMention,
  rows: ReadonlyMap<string, ErrorRow>,
  vendor: CompiledVendorRule,
  written: ReadonlySet<string>,
  report: Report,
): void {
  const at = (): { file: string } & ReturnType<typeof place> => ({ file, ...place() });
  const row = rows.get(mention.code);
  if (row) {
    if (mention.status !== undefined && mention.status !== row.httpStatus) {
      report({
        ...at(),
        messageId: 'status-differs',
        data: { code: row.code, written: mention.status, registered: row.httpStatus },
        hint: `write ${row.httpStatus}, or correct the row in ${ERRORS_PATH} if the prose is right`,
      });
    }
    if (mention.retriable !== undefined && mention.retriable !== row.retriable) {
      report({
        ...at(),
        messageId: 'retriable-differs',
        data: { code: row.code, written: mention.retriable ? 'yes' : 'no', registered: row.retriable ? 'yes' : 'no' },
        hint: `write ${row.retriable ? 'yes' : 'no'}, or correct the row in ${ERRORS_PATH}`,
      });
    }
    return;
  }
  if (vendor.regex?.test(mention.code)) return;
  // A snake_case word that only stands in a sentence about an error is a code when it nearly spells
  // one, or when the corpus writes it as a code elsewhere.
  if (mention.form === 'candidate' && !written.has(mention.code)) {
    const near = nearMiss(mention.code, rows.keys(), '_');
    if (near !== undefined)
      report({
        ...at(),
        messageId: 'near-miss',
        data: { code: mention.code, suggestion: near },
        hint: `write ${near}, the code of ${ERRORS_PATH}, or register this one there`,
      });
    return;
  }
  report({ ...at(), ...unregistered(mention.code, rows, vendor) });
}

function unregistered(
  code: string,
  rows: ReadonlyMap<string, ErrorRow>,
  vendor: CompiledVendorRule,
): Pick<Finding, 'messageId' | 'data' | 'hint'> {
  const org = /^([a-z][a-z0-9-]*)\./.exec(code)?.[1];
  if (org === 'openwop')
    return { messageId: 'reserved-prefix', data: { code }, hint: `register a snake_case code in ${ERRORS_PATH}` };
  if (org !== undefined && vendor.orgs && !vendor.orgs.includes(org)) {
    return {
      messageId: 'unknown-org',
      data: { code, org, declaration: DECLARATION_PATH },
      hint:
        vendor.orgs.length > 0
          ? `registered orgs: ${vendor.orgs.join(', ')}`
          : `${DECLARATION_PATH} registers no org under "extensions"`,
    };
  }
  const suggestion = nearMiss(code, rows.keys(), '_');
  if (suggestion !== undefined)
    return {
      messageId: 'near-miss',
      data: { code, suggestion },
      hint: `write ${suggestion}, the code of ${ERRORS_PATH}, or register this one there`,
    };
  return {
    messageId: 'unregistered',
    data: { code },
    hint: `use a code of ${ERRORS_PATH} or register this one there${vendor.pattern ? `; a vendor code matches ${vendor.pattern}` : ''}`,
  };
}
