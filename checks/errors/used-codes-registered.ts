import { defineCheck } from '../../core/run/index.js';
import type { Finding, Report } from '../../core/output/index.js';
import { markdownCodeMentions, nearMiss, yamlCodeMentions, type CodeMention } from '../../core/registries/index.js';
import { DECLARATION_PATH } from '../../core/registries/index.js';
import { ERRORS_PATH, readErrorsRegistry, vendorCodeRule, type ErrorRow, type VendorCodeRule } from '../../core/registries/index.js';
import { Location, type TextualFile } from '../../core/model/index.js';
import { closest } from '../../core/output/index.js';
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
  summary: 'An error code the prose names (beside a status, in a list after one, in a code table, in an envelope example) or an API document names (in a description, a 4xx/5xx response\'s description, an error enum) is registered, with its registered status, or is a well-formed vendor code; a near miss of a registered code in a sentence about an error is a finding',
  description:
    'A code is read where the text makes it one: beside a status, in a list that continues one (`409` `a`, `b` or `c`), in a code table, an envelope example, an `error` enum, and every snake_case code span of a 4xx or 5xx response\'s description. A snake_case word elsewhere in a sentence about an error is a code only when it nearly spells a registered one (a word more or fewer, or one word misspelt), and the finding says which.',
  severity: 'error',
  run(corpus, report) {
    const read = readErrorsRegistry(corpus);
    // Without a valid registry there is nothing to hold the codes to; errors/registry says why.
    if (read.state !== 'valid') return;
    const rows = new Map(read.registry.rows.map((row) => [row.code, row]));
    const vendor = compileVendorRule(vendorCodeRule(corpus, read.registry));
    for (const file of corpus.markdownFiles()) {
      // A generated document restates the registry; where it disagrees, generated/drift names each row.
      if (!PROSE.test(file.path) || isGeneratedDocument(file)) continue;
      for (const mention of markdownCodeMentions(file)) judge(file, mention, rows, vendor, report);
    }
    for (const file of corpus.dataFiles()) {
      if (file.path === ERRORS_PATH) continue;
      const api = API_DOCUMENTS.includes(file.path) && file.path !== SEAMS;
      for (const mention of yamlCodeMentions(file, { examples: !api })) judge(file, mention, rows, vendor, report);
    }
  },
});

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

function judge(file: TextualFile, mention: CodeMention, rows: ReadonlyMap<string, ErrorRow>, vendor: CompiledVendorRule, report: Report): void {
  const at = (): { location: Location } => ({ location: Location.text(file, mention.start, mention.end) });
  const row = rows.get(mention.code);
  if (row) {
    if (mention.status !== undefined && mention.status !== row.httpStatus) {
      report({
        ...at(),
        messageId: 'status-differs', data: { code: row.code, written: mention.status, registered: row.httpStatus },
        message: `${mention.status} ${row.code}: the registry gives ${row.code} the status ${row.httpStatus}`,
        hint: `write ${row.httpStatus}, or correct the row in ${ERRORS_PATH} if the prose is right`,
      });
    }
    if (mention.retriable !== undefined && mention.retriable !== row.retriable) {
      report({
        ...at(),
        messageId: 'retriable-differs', data: { code: row.code, written: mention.retriable, registered: row.retriable },
        message: `${row.code} is marked ${mention.retriable ? 'retriable' : 'not retriable'} here, but the registry says it is ${row.retriable ? 'retriable' : 'not retriable'}`,
        hint: `write ${row.retriable ? 'yes' : 'no'}, or correct the row in ${ERRORS_PATH}`,
      });
    }
    return;
  }
  if (vendor.regex?.test(mention.code)) return;
  // A snake_case word that only stands in a sentence about an error is a code when it nearly spells one.
  if (mention.form === 'candidate') {
    const near = nearMiss(mention.code, rows.keys(), '_');
    if (near !== undefined) report({ ...at(), messageId: 'unregistered', data: { code: mention.code, suggestion: near }, message: `"${mention.code}" is not a registered error code; did you mean ${near}?`, hint: `write ${near}, the code of ${ERRORS_PATH}, or register this one there` });
    return;
  }
  report({ ...at(), ...unregistered(mention.code, rows, vendor) });
}

function unregistered(code: string, rows: ReadonlyMap<string, ErrorRow>, vendor: CompiledVendorRule): Pick<Finding, 'messageId' | 'data' | 'hint'> & { message: string } {
  const org = /^([a-z][a-z0-9-]*)\./.exec(code)?.[1];
  if (org === 'openwop') {
    return { messageId: 'reserved-prefix', data: { code }, message: `"${code}" uses the reserved prefix openwop.; it is neither a registered code nor a vendor code`, hint: `register a snake_case code in ${ERRORS_PATH}` };
  }
  if (org !== undefined && vendor.orgs && !vendor.orgs.includes(org)) {
    return {
      messageId: 'unknown-org', data: { code, org },
      message: `"${code}" is shaped like a vendor code, but ${org} is not an org registered in ${DECLARATION_PATH}`,
      hint: vendor.orgs.length > 0 ? `registered orgs: ${vendor.orgs.join(', ')}` : `${DECLARATION_PATH} registers no org under "extensions"`,
    };
  }
  const suggestion = nearMiss(code, rows.keys(), '_');
  return {
    messageId: 'unregistered', data: { code, suggestion: suggestion ?? '' },
    message: `"${code}" is not a registered error code${suggestion ? `; did you mean ${suggestion}?` : ''}`,
    hint: `use a code of ${ERRORS_PATH} or register this one there${vendor.pattern ? `; a vendor code matches ${vendor.pattern}` : ''}`,
  };
}
