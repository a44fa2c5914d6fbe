/**
 * Code Climate issues as GitLab's Code Quality report reads them (a JSON array; each issue with a
 * description, check_name, fingerprint, severity and location.path with location.lines.begin).
 * GitLab keys issues by fingerprint, so two findings with the same fingerprint (the same text
 * flagged twice in one file) get distinct ones, derived from it and their order.
 */
import { isActive, type Diagnostic } from '../diagnostics.js';
import { sha256Hex } from '../digest.js';
import { safeJson } from '../escape.js';
import { withHint } from './summary.js';
import type { Reporter } from './types.js';

export const codeclimate: Reporter = (diagnostics) => {
  const seen = new Map<string, number>();
  const issues = diagnostics.filter(isActive).map((d) => {
    const base = d.fingerprint ?? sha256Hex(JSON.stringify([d.rule, d.file, d.message])).slice(0, 32);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    return {
      type: 'issue',
      check_name: d.rule,
      description: withHint(d),
      categories: ['Style'],
      severity: d.severity === 'error' ? 'major' : 'minor',
      fingerprint: n === 0 ? base : sha256Hex(`${base}#${n}`).slice(0, 32),
      location: location(d),
    };
  });
  return `${safeJson(JSON.stringify(issues, null, 2))}\n`;
};

/** Line-based: the Code Climate spec allows lines or positions, not both, and GitLab shows lines. */
function location(d: Diagnostic): Record<string, unknown> {
  return { path: d.file, lines: { begin: d.line, end: Math.max(d.line, d.endLine ?? d.line) } };
}
