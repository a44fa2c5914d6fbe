/**
 * A house rule as a gate: its definition (already read and checked) turned into a Check the engine
 * runs like any built-in one, so that its findings are located, fingerprinted, suppressible,
 * baselined and reported in every format as theirs are.
 */
import { defineCheck, type Check } from '../run/index.js';
import type { Location } from '../model/index.js';
import { thens, type HouseRuleDefinition, type Then } from './definition.js';
import { evaluate, show, type Value } from './functions.js';
import { selectTargets, type Target } from './select.js';

export function houseRuleCheck(id: string, definition: HouseRuleDefinition): Check {
  const rules = thens(definition);
  return defineCheck({
    id,
    summary: definition.description ?? describeRule(definition),
    description: `A house rule, defined in the config: ${describeRule(definition)}.${definition.url ? ` More: ${definition.url}` : ''}`,
    severity: definition.severity === 'error' ? 'error' : 'warning',
    fixable: rules.some((then) => then.function === 'substitution'),
    run(corpus, report) {
      for (const target of selectTargets(corpus, definition.given)) {
        for (const then of rules) {
          for (const problem of problemsOf(target, then)) {
            const message = render(definition.message, { ...problem.vars, error: problem.error });
            // The function that found it is the message's id; the values its message is made of are its data.
            report({
              location: problem.place,
              message,
              messageId: then.function,
              data: { ...problem.vars, error: problem.error },
              hint: definition.hint ?? problem.hint,
              ...(problem.fix ? { fix: problem.fix } : {}),
            });
          }
        }
      }
    },
  });
}

interface Placed {
  error: string;
  hint: string;
  place: Location;
  fix?: { start: number; end: number; text: string };
  vars: Record<string, string>;
}

function problemsOf(target: Target, then: Then): Placed[] {
  const field = then.field;
  const checked: Value =
    field === undefined
      ? { missing: target.value === undefined, value: target.value }
      : field === '@key'
        ? target.key === undefined
          ? { missing: true }
          : { missing: false, value: target.key }
        : fieldValue(target.value, field);
  const property =
    field === undefined
      ? target.key !== undefined
        ? String(target.key)
        : target.name
      : field === '@key'
        ? String(target.key ?? '')
        : field;
  const subject =
    field === undefined || field === '@key' ? target.name : `${target.name === '/' ? '' : target.name}/${field}`;
  const vars = { property, path: subject, value: checked.missing ? '' : show(checked.value) };
  if (then.function !== 'substitution') {
    // The value's own words lead: `/info/title "Foo" does not match …`, `heading "Intro" is not …`.
    return evaluate(then, checked).map((problem) => ({
      error: `${subject} ${problem.error}`,
      hint: problem.hint,
      place: target.locate(field),
      vars,
    }));
  }
  // A substitution is placed on the words it replaces, and fixed there when the text maps back to the file.
  return target.pieces(field).flatMap((piece) =>
    evaluate(then, { missing: false, value: piece.text }).flatMap((problem) => {
      if (!problem.span) return [];
      const { start, end, replacement } = problem.span;
      const fix = piece.edit(start, end, replacement);
      return [
        { error: problem.error, hint: problem.hint, place: piece.locate(start, end), ...(fix ? { fix } : {}), vars },
      ];
    }),
  );
}

function fieldValue(value: unknown, field: string): Value {
  if (value === null || typeof value !== 'object' || !Object.hasOwn(value, field)) return { missing: true };
  return { missing: false, value: (value as Record<string, unknown>)[field] };
}

/** `{{error}}`, `{{value}}`, `{{property}}` and `{{path}}` in the rule's message; without one, the function's own words. */
function render(template: string | undefined, vars: Readonly<Record<string, string>>): string {
  if (template === undefined) return vars.error ?? '';
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => vars[name] ?? whole);
}

/** The rule in one line, from its definition: what it reads and what it asks. */
function describeRule(definition: HouseRuleDefinition): string {
  const { given } = definition;
  const files = given.files === undefined ? '' : ` of ${[given.files].flat().map(code).join(', ')}`;
  const where =
    given.markdown !== undefined
      ? `markdown ${given.markdown}${given.level ? ` of level ${given.level}` : ''}${given.column ? ` in column "${given.column}"` : ''}${files}`
      : `${code(given.path ?? given.pointer ?? '')}${files || ' of JSON and YAML files'}`;
  const asks = thens(definition)
    .map(
      (then) =>
        `${then.field ? `${code(then.field)} ` : ''}${then.function}${then.functionOptions ? ` ${code(JSON.stringify(then.functionOptions))}` : ''}`,
    )
    .join('; ');
  return `${where}: ${asks}`;
}

/** A code span for a selector, a glob or options in the description (the rules reference is markdown). */
function code(text: string): string {
  const fence = '`'.repeat(Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length)) + 1);
  return fence.length > 1 ? `${fence} ${text} ${fence}` : `\`${text}\``;
}
