/**
 * One self-contained html page: the counts and why the run fails, then the findings that count
 * grouped by file, each with the source lines it is on (the located text marked), filterable by
 * rule and severity. The filter lives in the page's address (`#rule=links/anchor&severity=error`),
 * so a filtered view can be linked. Nothing is loaded from elsewhere, and a Content-Security-Policy
 * lets only the page's own script and style run: text from the corpus is escaped, and were it not,
 * nothing it smuggled in could execute.
 */
import { createHash } from 'node:crypto';
import { compareStrings, isActive, type Diagnostic } from '../diagnostics.js';
import { count } from '../verdict.js';
import { markupAttributes as attrs, markupText as text } from './markup.js';
import { fixableCount, problemsText } from './summary.js';
import type { Reporter, ReportContext, RuleMeta } from './types.js';

/** Lines of context shown above and below a finding's own lines. */
const CONTEXT_LINES = 1;
/** A finding spanning more lines shows its first ones only. */
const MAX_SPAN_LINES = 8;

const STYLE = `
:root { color-scheme: light dark; --error: #c62828; --warning: #b26a00; --muted: #777; --mark: #ffe08a55; }
body { font: 14px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 75rem; padding: 1rem 1.5rem; }
h1 { font-size: 1.4rem; margin: 0 0 .3rem; } h2 { font-size: 1.05rem; margin: 1.5rem 0 .5rem; font-family: ui-monospace, monospace; }
#filters { display: flex; gap: 1rem; flex-wrap: wrap; margin: .8rem 0; }
.finding { border-left: 3px solid var(--muted); padding: .2rem .8rem; margin: .6rem 0; }
.finding[data-severity="error"] { border-color: var(--error); } .finding[data-severity="warning"] { border-color: var(--warning); }
.severity { font-weight: 600; } .error .severity { color: var(--error); } .warning .severity { color: var(--warning); }
.rule, .where { font-family: ui-monospace, monospace; color: var(--muted); } .hint { color: var(--muted); margin: .2rem 0; }
pre { margin: .4rem 0; overflow-x: auto; font: 12.5px/1.4 ui-monospace, monospace; }
.ln { display: inline-block; min-width: 3.5em; color: var(--muted); user-select: none; }
.at { background: var(--mark); } mark { background: #f5c542; color: inherit; }
[hidden] { display: none !important; }
`;

const SCRIPT = `
const rule = document.getElementById('rule');
const severity = document.getElementById('severity');
const findings = [...document.querySelectorAll('.finding')];
function apply(fromUser) {
  let shown = 0;
  for (const f of findings) {
    const ok = (rule.value === '' || f.dataset.rule === rule.value) && (severity.value === '' || f.dataset.severity === severity.value);
    f.hidden = !ok;
    if (ok) shown++;
  }
  for (const s of document.querySelectorAll('section.file')) s.hidden = !s.querySelector('.finding:not([hidden])');
  document.getElementById('showing').textContent = 'Showing ' + shown + ' of ' + findings.length + ' findings';
  if (fromUser) {
    const p = new URLSearchParams();
    if (rule.value) p.set('rule', rule.value);
    if (severity.value) p.set('severity', severity.value);
    try { history.replaceState(null, '', p.size ? '#' + p : location.pathname + location.search); } catch {}
  }
}
function fromAddress() {
  const p = new URLSearchParams(location.hash.slice(1));
  for (const [select, key] of [[rule, 'rule'], [severity, 'severity']]) {
    const wanted = p.get(key) ?? '';
    select.value = [...select.options].some((o) => o.value === wanted) ? wanted : '';
  }
  apply(false);
}
rule.addEventListener('change', () => apply(true));
severity.addEventListener('change', () => apply(true));
addEventListener('hashchange', fromAddress);
fromAddress();
`;

const csp = (source: string): string => `'sha256-${createHash('sha256').update(source).digest('base64')}'`;

export const html: Reporter = (diagnostics, context) => {
  const { summary, rules, toolName, failure, fixCommand } = context;
  const active = diagnostics.filter(isActive);
  const accepted = diagnostics.filter((d) => !isActive(d) && d.baselineState !== 'absent');
  const meta = new Map(rules.map((r) => [r.id, r]));
  const sources = sourceLines(context);
  const fixable = fixableCount(diagnostics);
  const title = `${toolName} check: ${problemsText(summary)}`;

  const byFile = new Map<string, Diagnostic[]>();
  for (const d of active) byFile.set(d.file, [...(byFile.get(d.file) ?? []), d]);
  const ruleCounts = tally(active.map((d) => d.rule));
  const severityCounts = tally(active.map((d) => d.severity));

  const out: string[] = [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${csp(STYLE)}; script-src ${csp(SCRIPT)}">`,
    `<title>${text(title)}</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    '<header>',
    `<h1>${text(toolName)} check</h1>`,
    `<p id="summary">${text(problemsText(summary))}</p>`,
  ];
  if (failure) out.push(`<p id="failure">${text(failure)}</p>`);
  if (fixable > 0 && fixCommand)
    out.push(
      `<p id="fixable">${text(`${count(fixable, 'problem')} fixable with`)} <code>${text(fixCommand)}</code></p>`,
    );
  out.push(
    '<form id="filters">',
    `<label>Rule <select id="rule"><option value="">all rules</option>${[...ruleCounts].map(([id, n]) => `<option ${attrs({ value: id })}>${text(`${id} (${n})`)}</option>`).join('')}</select></label>`,
    `<label>Severity <select id="severity"><option value="">all severities</option>${[...severityCounts].map(([s, n]) => `<option ${attrs({ value: s })}>${text(`${s} (${n})`)}</option>`).join('')}</select></label>`,
    '</form>',
    `<p id="showing">Showing ${active.length} of ${active.length} findings</p>`,
    '</header>',
    '<main>',
  );
  let n = 0;
  for (const [file, found] of byFile) {
    out.push(`<section class="file" ${attrs({ 'data-file': file })}>`, `<h2>${text(file)}</h2>`);
    for (const d of found) out.push(finding(d, `f${++n}`, meta.get(d.rule), sources(d.file)));
    out.push('</section>');
  }
  out.push('</main>');
  if (accepted.length > 0) {
    out.push(
      `<details id="accepted"><summary>${text(`${count(accepted.length, 'accepted finding')} (suppressed or in the findings baseline)`)}</summary><ul>`,
    );
    for (const d of accepted) {
      const why = d.suppression ? `suppressed: ${d.suppression.justification}` : 'accepted by the findings baseline';
      out.push(
        `<li><span class="where">${text(`${d.file}:${d.line}:${d.column}`)}</span> ${text(d.message)} <span class="rule">${text(d.rule)}</span> (${text(why)})</li>`,
      );
    }
    out.push('</ul></details>');
  }
  out.push(`<script>${SCRIPT}</script>`, '</body>', '</html>');
  return `${out.join('\n')}\n`;
};

function finding(d: Diagnostic, id: string, meta: RuleMeta | undefined, lines: readonly string[] | undefined): string {
  const rule =
    meta?.helpUri && meta.helpUri.startsWith('https://')
      ? `<a class="rule" ${attrs({ href: meta.helpUri })}>${text(d.rule)}</a>`
      : `<span class="rule">${text(d.rule)}</span>`;
  const parts = [
    `<article ${attrs({ class: `finding ${d.severity}`, id, 'data-rule': d.rule, 'data-severity': d.severity })}>`,
    `<p><span class="severity">${d.severity}</span> <a class="where" ${attrs({ href: `#${id}` })}>${d.line}:${d.column}</a> <span class="message">${text(d.message)}</span> ${rule}</p>`,
  ];
  if (d.hint) parts.push(`<p class="hint">hint: ${text(d.hint)}</p>`);
  for (const r of d.related ?? [])
    parts.push(
      `<p class="hint">${text(`${r.message ? `${r.message}: ` : 'see '}${r.file}:${r.line}:${r.column}`)}</p>`,
    );
  if (lines) parts.push(excerpt(d, lines));
  parts.push('</article>');
  return parts.join('\n');
}

/** The finding's lines with one of context on each side, its own lines marked and, where it says, the located text. */
function excerpt(d: Diagnostic, lines: readonly string[]): string {
  const last = Math.min(Math.max(d.line, d.endLine ?? d.line), d.line + MAX_SPAN_LINES - 1);
  const from = Math.max(1, d.line - CONTEXT_LINES);
  const to = Math.min(lines.length, last + CONTEXT_LINES);
  if (d.line > lines.length) return '';
  const rows: string[] = [];
  for (let line = from; line <= to; line++) {
    const source = lines[line - 1] ?? '';
    const own = line >= d.line && line <= last;
    const startCol = line === d.line ? d.column : 1;
    const endCol =
      d.endLine === undefined || d.endColumn === undefined
        ? undefined
        : line === d.endLine
          ? d.endColumn
          : line < d.endLine
            ? source.length + 1
            : undefined;
    const body =
      own && endCol !== undefined && endCol > startCol
        ? `${code(source.slice(0, startCol - 1))}<mark>${code(source.slice(startCol - 1, endCol - 1))}</mark>${code(source.slice(endCol - 1))}`
        : code(source);
    rows.push(`<span ${attrs({ class: own ? 'at' : undefined })}><span class="ln">${line}</span>${body}</span>`);
  }
  return `<pre class="source">${rows.join('\n')}</pre>`;
}

/** A piece of a source line: tabs as spaces (a tab would show as its escape), the rest escaped as any text. */
function code(piece: string): string {
  return text(piece.replace(/\t/g, '    '));
}

function sourceLines(context: ReportContext): (file: string) => readonly string[] | undefined {
  const cache = new Map<string, readonly string[] | undefined>();
  return (file) => {
    if (!cache.has(file)) cache.set(file, context.source?.(file)?.split(/\r?\n/));
    return cache.get(file);
  };
}

function tally(values: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const v of [...values].sort(compareStrings)) counts.set(v, (counts.get(v) ?? 0) + 1);
  return counts;
}
