/**
 * The declaration rules' cases: the `good` base corpus with the events fixture's registries and
 * documents added (spec/v2/declaration.json, the codemap, events.md, forms.md, the registry
 * schemas), and where in a text a finding is expected.
 */
import { DECLARATION, EVENTS_MD, eventsFiles, FORMS_MD, position } from '../../events/helpers.js';

export { DECLARATION, EVENTS_MD, FORMS_MD };

const { 'openwop-spec.config.json': _config, ...files } = eventsFiles();

/** The files a case adds to the base corpus. */
export const REGISTRY: Readonly<Record<string, string>> = files;
export const declaration = REGISTRY[DECLARATION] as string;
export const events = REGISTRY[EVENTS_MD] as string;
export const forms = REGISTRY[FORMS_MD] as string;

/** The declaration with its JSON changed, re-serialized (positions are taken on the result). */
export function editedDeclaration(change: (value: Record<string, any>) => void): string {
  const value = JSON.parse(declaration) as Record<string, any>;
  change(value);
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** The registry files with some replaced. */
export function withFiles(over: Readonly<Record<string, string>>): Record<string, string> {
  return { ...REGISTRY, ...over };
}

/** Line and column of `needle` in `text` (its `occurrence`), `offset` columns further (inside a quote or a backtick). */
export function place(text: string, needle: string, offset = 0, occurrence = 1): { line: number; column: number } {
  const { line, column } = position(text, needle, occurrence);
  return { line, column: column + offset };
}
