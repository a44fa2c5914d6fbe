/**
 * JUnit XML, as CI systems read test reports (GitLab's test report, Jenkins, Azure Pipelines,
 * CircleCI): a <testsuite> per rule that ran, a failing <testcase> per finding that counts (an
 * error or a warning, as ESLint's junit report has it), a skipped one per finding a suppression or
 * the findings baseline accepted, and one passing case for a rule that found nothing, so that the
 * report lists every rule. No clock: the same run gives the same bytes.
 */
import { isActive, type Diagnostic } from '../diagnostics.js';
import { withHint } from './summary.js';
import type { Reporter } from './types.js';
import { markupAttributes, markupText, XML_DECLARATION } from './markup.js';

interface Case {
  xml: string;
  failed: boolean;
  skipped: boolean;
}

export const junit: Reporter = (diagnostics, { rules, toolName }) => {
  const reported = diagnostics.filter((d) => d.baselineState !== 'absent');
  const ruleIds = [...new Set([...rules.map((r) => r.id), ...reported.map((d) => d.rule)])].sort();
  const suites = ruleIds.map((rule) => {
    const found = reported.filter((d) => d.rule === rule);
    const cases =
      found.length > 0
        ? found.map(testCase)
        : [
            {
              xml: `    <testcase ${markupAttributes({ classname: rule, name: `${rule}: no findings` })}/>`,
              failed: false,
              skipped: false,
            },
          ];
    return {
      rule,
      cases,
      failures: cases.filter((c) => c.failed).length,
      skipped: cases.filter((c) => c.skipped).length,
    };
  });
  const total = (pick: (s: (typeof suites)[number]) => number): number => suites.reduce((sum, s) => sum + pick(s), 0);
  const lines = [
    XML_DECLARATION,
    `<testsuites ${markupAttributes({ name: toolName, tests: total((s) => s.cases.length), failures: total((s) => s.failures), errors: 0, skipped: total((s) => s.skipped) })}>`,
  ];
  for (const suite of suites) {
    lines.push(
      `  <testsuite ${markupAttributes({ name: suite.rule, tests: suite.cases.length, failures: suite.failures, errors: 0, skipped: suite.skipped })}>`,
    );
    for (const c of suite.cases) lines.push(c.xml);
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>');
  return `${lines.join('\n')}\n`;
};

function testCase(d: Diagnostic): Case {
  const open = `    <testcase ${markupAttributes({ classname: d.rule, name: `${d.file}:${d.line}:${d.column}`, file: d.file, line: d.line })}>`;
  if (isActive(d)) {
    const body = `${d.file}:${d.line}:${d.column} ${d.severity} ${withHint(d)}`;
    return {
      xml: `${open}\n      <failure ${markupAttributes({ type: d.severity, message: d.message })}>${markupText(body)}</failure>\n    </testcase>`,
      failed: true,
      skipped: false,
    };
  }
  const why = d.suppression ? `suppressed: ${d.suppression.justification}` : 'accepted by the findings baseline';
  return {
    xml: `${open}\n      <skipped ${markupAttributes({ message: why })}/>\n    </testcase>`,
    failed: false,
    skipped: true,
  };
}
