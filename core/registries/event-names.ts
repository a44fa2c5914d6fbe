/**
 * The naming rule of protocol event types (events.md §"Types"): `domain.verb-ed`, kebab-case,
 * exactly two segments, past tense for a transition, never under a reserved prefix. The rule is
 * about words, so the test for "past tense" is a word test; the exceptions to it live in the
 * codemap, never here.
 */

/** One kebab-case segment of an event type. */
export const TYPE_SEGMENT = '[a-z][a-z0-9]*(?:-[a-z0-9]+)*';

/** The prefix the protocol keeps for itself. */
const RESERVED_PREFIX = 'openwop';

/** Pack namespaces (packs.md §"Namespaces"): they name packs, never events. */
const PACK_NAMESPACES: readonly string[] = ['core', 'community', 'vendor', 'private', 'local'];

/**
 * Irregular past participles a transition may end in (`lease.lost`, `memory.written`).
 * Forms that are also common nouns or present tenses (`run`, `set`, `read`, `cut`) are left out,
 * so that a noun is never mistaken for a transition.
 */
const IRREGULAR_PAST = new Set([
  'begun',
  'bound',
  'broken',
  'built',
  'chosen',
  'dealt',
  'done',
  'drawn',
  'driven',
  'fallen',
  'fed',
  'felt',
  'fled',
  'flown',
  'forbidden',
  'forgotten',
  'forgiven',
  'fought',
  'found',
  'frozen',
  'given',
  'gone',
  'grown',
  'heard',
  'held',
  'hidden',
  'hung',
  'kept',
  'known',
  'laid',
  'led',
  'left',
  'lent',
  'lost',
  'made',
  'meant',
  'met',
  'overridden',
  'paid',
  'rebuilt',
  'rewritten',
  'risen',
  'sent',
  'shown',
  'shrunk',
  'sold',
  'sought',
  'spent',
  'spoken',
  'stolen',
  'stood',
  'struck',
  'stuck',
  'taken',
  'taught',
  'thrown',
  'told',
  'torn',
  'undone',
  'unmet',
  'upheld',
  'withdrawn',
  'withheld',
  'woken',
  'won',
  'worn',
  'written',
]);

/** Words that end in "ed" without being a past tense. */
const NOT_PAST = new Set([
  'bed',
  'bleed',
  'breed',
  'creed',
  'embed',
  'feed',
  'greed',
  'hundred',
  'need',
  'red',
  'reed',
  'seed',
  'shed',
  'sled',
  'speed',
  'steed',
  'weed',
]);

export function typeSegments(type: string): string[] {
  return type.split('.');
}

/**
 * Whether the verb part of a segment is a past tense: one of its words is a regular (`-ed`) or
 * irregular past form. `restored-from-snapshot`, `resume-started` and `handed-off` all qualify;
 * `chunk`, `speech-start` and `loopback-limit` do not.
 */
export function isPastTense(segment: string): boolean {
  return segment
    .split('-')
    .some((word) => IRREGULAR_PAST.has(word) || (word.length > 3 && word.endsWith('ed') && !NOT_PAST.has(word)));
}

export interface NamingProblem {
  /** A short key, stable for tests and hints. */
  kind: 'segments' | 'grammar' | 'reserved-prefix' | 'pack-namespace' | 'tense';
  /** The values its words need, beside the type: the prefix, the segment count, the grammar. */
  data: Record<string, string | number>;
  message: string;
  hint: string;
}

/**
 * Problems of a protocol type's name, ignoring exceptions: the caller decides whether a recorded
 * exception excuses a `tense` problem. `grammar` is the codemap's protocol grammar.
 */
export function protocolTypeProblems(type: string, grammar: RegExp): NamingProblem[] {
  const problems: NamingProblem[] = [];
  const segments = typeSegments(type);
  const first = segments[0] ?? '';
  if (first === RESERVED_PREFIX) {
    problems.push({
      kind: 'reserved-prefix',
      data: { prefix: RESERVED_PREFIX },
      message: `\`${type}\` is under \`${RESERVED_PREFIX}.\`, the prefix the protocol reserves`,
      hint: 'name the type by its domain: `domain.verb-ed`',
    });
  } else if (PACK_NAMESPACES.includes(first)) {
    problems.push({
      kind: 'pack-namespace',
      data: { namespace: first },
      message: `\`${type}\` is under \`${first}.\`, a pack namespace, not an event namespace`,
      hint: `drop the \`${first}.\` prefix: a protocol type is \`domain.verb-ed\` (events.md §"Types")`,
    });
  }
  if (segments.length !== 2) {
    problems.push({
      kind: 'segments',
      data: { segments: segments.length },
      message: `\`${type}\` has ${segments.length} segment${segments.length === 1 ? '' : 's'}; a protocol type has exactly two (\`domain.verb-ed\`)`,
      hint:
        segments.length > 2
          ? `fold the extra segments into the second with hyphens, e.g. \`${segments[0]}.${segments.slice(1).join('-')}\``
          : 'add the verb: `domain.verb-ed`',
    });
  } else if (!grammar.test(type)) {
    problems.push({
      kind: 'grammar',
      data: { grammar: grammar.source },
      message: `\`${type}\` does not match the type grammar ${grammar.source}`,
      hint: 'use lowercase kebab-case words: `node.suspend-failed`',
    });
  } else if (!isPastTense(segments[1] ?? '')) {
    problems.push({
      kind: 'tense',
      data: {},
      message: `\`${type}\` is not past tense: a transition is \`domain.verb-ed\`, and \`domain.noun\` is allowed only for an emitted artifact recorded as an exception`,
      hint: 'rename it (keeping the old name as `v1`), or give its codemap row a note that opens with "artifact event" and says what it emits',
    });
  }
  return problems;
}

/**
 * The vendor branch of the `type` enum: the vendor shape with its first segment restricted to the
 * registered orgs, one or two segments after it.
 */
export function vendorTypePattern(orgs: readonly string[]): string {
  const alternatives = [...orgs].sort(compare).map(escapeRegExp).join('|');
  return `^(?:${alternatives})\\.${TYPE_SEGMENT}(?:\\.${TYPE_SEGMENT})?$`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
