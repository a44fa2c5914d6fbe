#!/usr/bin/env node
// The AsyncAPI leg of the peer run of `npm run bench`: what `asyncapi validate` does, without the
// AsyncAPI CLI's analytics and update checks. @asyncapi/parser reads the document, resolves every
// $ref (the payloads are corpus JSON Schema files, referenced by relative path), validates it
// against the official AsyncAPI schema of its version (@asyncapi/specs) and runs the parser's
// built-in Spectral ruleset. Exit 0 when no diagnostic is an error, 1 otherwise, 2 on a crash.
import { fromFile, Parser, DiagnosticSeverity } from '@asyncapi/parser';

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: asyncapi-validate.mjs <asyncapi.yaml>...');
  process.exit(2);
}
const parser = new Parser();
let errors = 0;
for (const file of files) {
  const { document, diagnostics } = await fromFile(parser, file).parse();
  for (const diagnostic of diagnostics) {
    const line = (diagnostic.range?.start?.line ?? 0) + 1;
    const severity = diagnostic.severity === DiagnosticSeverity.Error ? 'error' : 'warning';
    if (severity === 'error') errors++;
    if (severity === 'error' || process.env.ASYNCAPI_VERBOSE) console.log(`${file}:${line}  ${severity}  ${diagnostic.message}  ${diagnostic.code ?? ''}`);
  }
  console.log(`${file}: ${document ? 'valid' : 'invalid'} (${diagnostics.length} diagnostic${diagnostics.length === 1 ? '' : 's'})`);
}
process.exit(errors > 0 ? 1 : 0);
