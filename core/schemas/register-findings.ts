/**
 * A registry's violations of its schema (validateRegistry) as a gate reports them: by message id
 * and data, worded from the gate's `messages`, which take these templates.
 */
import type { Finding } from '../output/index.js';
import type { RegistryFinding } from './json-schema.js';

/** The words of each kind of registry finding, for a gate's `messages`. */
export const REGISTER_MESSAGES = {
  'schema-missing': 'its schema {{schema}} is missing or does not load',
  'schema-does-not-compile': 'its schema {{schema}} does not compile: {{error}}',
  'schema-mismatch': 'does not match {{schema}}: {{error}}',
  'schema-mismatch-places': 'does not match {{schema}}: {{error}} (at {{places}} places, the first here)',
} as const;

/**
 * The finding without its words, for a registry validated against a schema of the corpus (not one
 * the tool carries): one violation found at several places has its own id, whose words count them.
 */
export function registerFinding(finding: RegistryFinding): Finding {
  const { message: _worded, ...rest } = finding;
  const places = rest.data.places ?? 1;
  return rest.messageId === 'schema-mismatch' && places > 1 ? { ...rest, messageId: 'schema-mismatch-places' } : rest;
}
