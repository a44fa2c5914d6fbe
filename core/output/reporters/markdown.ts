/**
 * Markdown for a GitHub job summary ($GITHUB_STEP_SUMMARY) or a pull-request comment: the counts
 * and why the run fails, then a table of the findings that count, the suppressed and accepted ones
 * folded away. A comment body is at most 65,536 characters, so the tables stop short of that and
 * say how many rows were left out.
 */
import { isActive, type Diagnostic } from '../diagnostics.js';
import { count } from '../verdict.js';
import { mdCode, mdText } from './markdown-text.js';
import { fixableCount, problemsText } from './summary.js';
import type { Reporter, RuleMeta } from './types.js';

/** Room left under GitHub's 65,536-character comment limit for the heading, the counts and the notes. */
const BUDGET = 60_000;

export const markdown: Reporter = (diagnostics, { summary, rules, toolName, failure, fixCommand }) => {
  const help = new Map(rules.map((r) => [r.id, r]));
  const active = diagnostics.filter(isActive);
  const total = summary.errors + summary.warnings;
  const mark = total === 0 ? '✅' : summary.errors > 0 ? '❌' : '⚠️';
  const lines = [`### ${mark} ${mdText(toolName)} check`, '', `**${mdText(problemsText(summary))}**`];
  if (failure) lines.push('', mdText(failure));
  const fixable = fixableCount(diagnostics);
  if (fixable > 0 && fixCommand) lines.push('', `${count(fixable, 'problem')} fixable with ${mdCode(fixCommand)}`);
  let budget = BUDGET;
  const table = (found: readonly Diagnostic[], note: (d: Diagnostic) => string): string[] => {
    const rows = ['| Severity | Location | Finding | Rule |', '| --- | --- | --- | --- |'];
    let shown = 0;
    for (const d of found) {
      const row = `| ${d.severity} | ${mdCode(`${d.file}:${d.line}:${d.column}`)} | ${note(d)} | ${ruleLink(d.rule, help.get(d.rule))} |`;
      if (budget - row.length < 0) break;
      budget -= row.length + 1;
      rows.push(row);
      shown++;
    }
    if (shown < found.length)
      rows.push(
        '',
        `… and ${count(found.length - shown, 'more finding')}, left out to keep this under the size of a comment; \`--format json\` lists every one.`,
      );
    return rows;
  };
  const finding = (d: Diagnostic): string =>
    d.hint ? `${mdText(d.message)}<br>hint: ${mdText(d.hint)}` : mdText(d.message);
  if (active.length > 0) lines.push('', ...table(active, finding));
  const accepted = diagnostics.filter((d) => !isActive(d) && d.baselineState !== 'absent');
  if (accepted.length > 0) {
    const why = (d: Diagnostic): string =>
      `${finding(d)}<br>${d.suppression ? `suppressed: ${mdText(d.suppression.justification)}` : 'accepted by the findings baseline'}`;
    lines.push(
      '',
      `<details><summary>${count(accepted.length, 'accepted finding')} (suppressed or in the findings baseline)</summary>`,
      '',
      ...table(accepted, why),
      '',
      '</details>',
    );
  }
  return `${lines.join('\n')}\n`;
};

function ruleLink(rule: string, meta: RuleMeta | undefined): string {
  const code = mdCode(rule);
  return meta?.helpUri && /^https:\/\/[^\s()<>]+$/.test(meta.helpUri) ? `[${code}](${meta.helpUri})` : code;
}
