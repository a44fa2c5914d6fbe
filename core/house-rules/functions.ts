/**
 * The `then` functions of a house rule: each takes one selected value and says what is wrong with
 * it, if anything, in words a finding can carry, with the hint's default. Pure; the caller places
 * each problem (a substitution names the characters it replaces, so it is placed and fixed there).
 */
import type { Casing, Then } from './definition.js';

export interface Problem {
  /** What is wrong, said of the value (`"Foo" does not match /^x-/`). */
  error: string;
  /** What to do, unless the rule gives its own hint. */
  hint: string;
  /** For a substitution: the characters [start, end) of the text, and what replaces them. */
  span?: { start: number; end: number; replacement: string };
}

/** The checked value; `missing` when the field (or the value) is not there. */
export type Value = { missing: true } | { missing: false; value: unknown };

const CASING: Readonly<Record<Casing, RegExp>> = {
  flat: /^[a-z][a-z0-9]*$/,
  camel: /^[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)*$/,
  pascal: /^[A-Z][a-z0-9]*(?:[A-Z][a-z0-9]*)*$/,
  kebab: /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/,
  cobol: /^[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*$/,
  snake: /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/,
  macro: /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/,
};

/** A value as a finding quotes it: JSON, cut short. */
export function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}

/** What the functions that read text make of a value: strings as they are, numbers and booleans as written; others are not text. */
function asText(value: unknown): string | undefined {
  return typeof value === 'string'
    ? value
    : typeof value === 'number' || typeof value === 'boolean'
      ? String(value)
      : undefined;
}

const notText = (value: unknown, fn: string): Problem => ({
  error: `${show(value)} is ${Array.isArray(value) ? 'an array' : value === null ? 'null' : `a${typeof value === 'object' ? 'n object' : ` ${typeof value}`}`}, not text`,
  hint: `${fn} reads text: select a string (a field of this value, say) in the rule's given or then.field`,
});

export function evaluate(then: Then, checked: Value): Problem[] {
  const options = then.functionOptions ?? {};
  switch (then.function) {
    case 'defined':
      return checked.missing ? [{ error: 'is missing', hint: 'add it' }] : [];
    case 'undefined':
      return checked.missing
        ? []
        : [{ error: `is present (${show(checked.value)}) and must not be`, hint: 'remove it' }];
  }
  // The other functions judge a value that is there; a missing one is `defined`'s to report.
  if (checked.missing) return [];
  const { value } = checked;
  switch (then.function) {
    case 'pattern':
    case 'notPattern': {
      const text = asText(value);
      if (text === undefined) return [notText(value, then.function)];
      const re = new RegExp(options.match as string, options.flags ?? '');
      const shown = `/${options.match}/${options.flags ?? ''}`;
      if (then.function === 'pattern')
        return re.test(text)
          ? []
          : [{ error: `${show(value)} does not match ${shown}`, hint: `write it so that it matches ${shown}` }];
      return re.test(text)
        ? [
            {
              error: `${show(value)} matches ${shown}, which is not allowed`,
              hint: `write it so that it does not match ${shown}`,
            },
          ]
        : [];
    }
    case 'enumeration': {
      const values = options.values ?? [];
      if (values.some((allowed) => JSON.stringify(allowed) === JSON.stringify(value))) return [];
      return [
        {
          error: `${show(value)} is not one of ${values.map(show).join(', ')}`,
          hint: `use one of ${values.map(show).join(', ')}`,
        },
      ];
    }
    case 'casing': {
      const text = asText(value);
      if (text === undefined) return [notText(value, 'casing')];
      const type = options.type as Casing;
      return CASING[type].test(text)
        ? []
        : [{ error: `${show(value)} is not ${type} case`, hint: `write it in ${type} case (${EXAMPLES[type]})` }];
    }
    case 'length':
      return lengthProblems(value, options.min, options.max);
    case 'substitution':
      return substitutions(value, options.swap ?? {}, options.ignoreCase === true);
  }
}

const EXAMPLES: Readonly<Record<Casing, string>> = {
  flat: 'runid',
  camel: 'runId',
  pascal: 'RunId',
  kebab: 'run-id',
  cobol: 'RUN-ID',
  snake: 'run_id',
  macro: 'RUN_ID',
};

function lengthProblems(value: unknown, min: number | undefined, max: number | undefined): Problem[] {
  let size: number;
  let unit: string;
  if (typeof value === 'string') [size, unit] = [[...value].length, 'characters'];
  else if (Array.isArray(value)) [size, unit] = [value.length, 'items'];
  else if (typeof value === 'number') [size, unit] = [value, ''];
  else if (value !== null && typeof value === 'object') [size, unit] = [Object.keys(value).length, 'keys'];
  else return [notText(value, 'length')];
  const measured = unit ? `${size} ${unit}` : String(size);
  if (min !== undefined && size < min)
    return [
      {
        error: `${show(value)} is ${measured}, fewer than ${min}`,
        hint: `make it at least ${min}${unit ? ` ${unit}` : ''}`,
      },
    ];
  if (max !== undefined && size > max)
    return [
      {
        error: `${show(value)} is ${measured}, more than ${max}`,
        hint: `make it at most ${max}${unit ? ` ${unit}` : ''}`,
      },
    ];
  return [];
}

/**
 * Vale's substitution: each key a regular expression matched as whole words (not inside a longer
 * word), each value what to write instead. A match that starts with a capital gets a capitalised
 * replacement, so a sentence's first word stays one.
 */
function substitutions(value: unknown, swap: Readonly<Record<string, string>>, ignoreCase: boolean): Problem[] {
  if (typeof value !== 'string') return [];
  const problems: Problem[] = [];
  for (const [from, to] of Object.entries(swap)) {
    const re = new RegExp(`(?<![\\p{L}\\p{N}_])(?:${from})(?![\\p{L}\\p{N}_])`, `gu${ignoreCase ? 'i' : ''}`);
    for (const match of value.matchAll(re)) {
      const found = match[0];
      if (found === '' || found === to) continue;
      const replacement = /^\p{Lu}/u.test(found) && /^\p{Ll}/u.test(to) ? to.charAt(0).toUpperCase() + to.slice(1) : to;
      problems.push({
        error: `use "${replacement}" instead of "${found}"`,
        hint: `write "${replacement}"`,
        span: { start: match.index, end: match.index + found.length, replacement },
      });
    }
  }
  return problems.sort((a, b) => (a.span?.start ?? 0) - (b.span?.start ?? 0));
}
