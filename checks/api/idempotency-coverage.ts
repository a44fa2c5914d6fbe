import { isRecord, siteLocation,describeOperation,headerKey,OPENAPI_PATH,openApiModel,requestHeaders,responsesWithout,type OperationView,type ResponseView } from '../../core/api/index.js';
import { defineCheck } from '../../core/run/index.js';

const KEY = 'idempotency-key';
const REPLAY = 'openwop-idempotent-replay';
/**
 * The methods HTTP declares safe (RFC 9110 §9.2.1): the document that gives an operation one of
 * them says it changes nothing, retrying it is already harmless, and idempotency.md says a GET
 * MUST NOT honor the key.
 */
const SAFE_METHODS = new Set(['get', 'head', 'options', 'trace']);
/**
 * PUT and DELETE are idempotent by their definition (RFC 9110 §9.2.2): a retried one cannot make
 * a second run or effect, which is what Layer 1 exists to prevent. POST and PATCH are neither.
 */
const UNSAFE_METHODS = new Set(['post', 'patch']);

/** How the document shows that an operation changes state, each with the words of its finding. */
const EVIDENCE = {
  patch: 'PATCH applies a change to its target (RFC 5789)',
  created: 'it answers 201 Created',
  accepted: 'it answers 202 Accepted',
  location: 'a response names a new resource in Location',
  replay: 'a response declares OpenWOP-Idempotent-Replay, the mark of a reply from the idempotency cache',
  'no-body': 'no success answer carries a body, so its effect is all it does',
} as const;

type Evidence = keyof typeof EVIDENCE;

const isSuccess = (response: ResponseView) => /^2(\d\d|XX)$/.test(response.status);
const hasBody = (response: ResponseView) => response.status !== '204' && isRecord(response.value.content) && Object.keys(response.value.content).length > 0;

/**
 * What the document says of an unsafe operation that makes it change state, or undefined when it
 * says nothing either way. PATCH modifies by definition; a POST shows it by answering 201 or 202,
 * by naming a `Location`, by marking a cached replay, or by answering with no body at all (a
 * request whose only outcome is its effect). A POST that answers with a representation and shows
 * none of these may compute and change nothing (upstream's `POST /prompts:render`, a deterministic
 * render) or may change state: OpenAPI has no field that says which, and neither the method nor
 * the status does, so such an operation is not judged.
 */
function evidenceOfEffect(operation: OperationView): Evidence | undefined {
  if (operation.method === 'patch') return 'patch';
  const { responses } = operation;
  if (responses.some((response) => response.status === '201')) return 'created';
  if (responses.some((response) => response.status === '202')) return 'accepted';
  if (responses.some((response) => response.headers.some((header) => headerKey(header.name) === 'location'))) return 'location';
  if (responses.some((response) => response.headers.some((header) => headerKey(header.name) === REPLAY))) return 'replay';
  const successes = responses.filter(isSuccess);
  if (successes.length > 0 && !successes.some(hasBody)) return 'no-body';
  return undefined;
}

/**
 * Layer 1 of idempotency.md, as declared: every operation whose retry could multiply work takes
 * `Idempotency-Key`; no safe operation takes it. A response served from the cache carries
 * `OpenWOP-Idempotent-Replay`, which idempotency.md states of the response, not of each response
 * object: a document that declares the header as a shared component means it to be reused, and
 * then each 2xx of a keyed operation is held to declaring it; one that declares it inline where it
 * chooses (upstream: once) is not.
 */
export default defineCheck({
  id: 'api/idempotency-coverage',
  summary: 'Every POST or PATCH the document shows to change state declares Idempotency-Key, and where the replay header is a shared component each 2xx of a keyed operation declares OpenWOP-Idempotent-Replay; no safe operation (GET, HEAD, OPTIONS, TRACE) declares Idempotency-Key',
  description:
    'idempotency.md asks Layer 1 of every mutating operation, whose retry must not multiply work, and forbids the key on a GET. The rule reads what the API document itself declares, and guesses nothing. The method is a declaration: GET, HEAD, OPTIONS and TRACE are safe (RFC 9110 §9.2.1), so the key on one of them (on the operation or inherited from its path item) is a finding; PUT and DELETE are idempotent by definition (§9.2.2), so a retry cannot do their work twice and they are not asked; PATCH changes its target by definition (RFC 5789) and is always asked. A POST is asked when the document shows it changes state: it answers 201 or 202, a response names a `Location` or declares `OpenWOP-Idempotent-Replay`, or no success answer carries a body (its effect is all it does). A POST that answers with a representation and shows none of these may be a computation that changes nothing (upstream\'s `POST /prompts:render`) or may change state: OpenAPI has no field that says which, and a 200 does not tell, so the rule says nothing of it. `OpenWOP-Idempotent-Replay` is asked of each 2xx of a keyed operation only where the document declares it as a shared component; upstream declares it inline on the one operation it chooses.',
  severity: 'error',
  messages: {
    'key-missing': '{{operation}} is a {{method}} that changes state ({{shown}}), and does not declare the Idempotency-Key header, so a retry may do it twice',
    'key-on-safe': '{{operation}} is a {{method}} and declares Idempotency-Key; a safe operation MUST NOT honor it',
    'key-inherited-on-safe': '{{operation}} is a {{method}} and declares Idempotency-Key (it inherits the key from its path item); a safe operation MUST NOT honor it',
    'replay-header-missing': '{{status}} response of {{operation}}, a {{method}}, does not declare OpenWOP-Idempotent-Replay, which marks a response served from the idempotency cache',
  },
  run(corpus, report) {
    const model = openApiModel(corpus, OPENAPI_PATH);
    if (!model) return;
    for (const operation of model.operations) {
      const key = requestHeaders(operation).find((header) => headerKey(header.name) === KEY);
      const method = operation.method.toUpperCase();
      const evidence = UNSAFE_METHODS.has(operation.method) && !key ? evidenceOfEffect(operation) : undefined;
      if (evidence) {
        report({
          location: siteLocation(operation.site),
          messageId: 'key-missing',
          data: { operation: describeOperation(operation), method, evidence, shown: EVIDENCE[evidence] },
          hint: 'add the shared Idempotency-Key parameter ($ref: #/components/parameters/IdempotencyKey): idempotency.md Layer 1 applies to every mutating operation. If this one changes no state, suppress the finding with that reason (openwop-spec.suppressions.json)',
        });
      } else if (SAFE_METHODS.has(operation.method) && key) {
        report({
          location: siteLocation(key.declared, 'value'),
          messageId: key.level === 'path-item' ? 'key-inherited-on-safe' : 'key-on-safe',
          data: { operation: describeOperation(operation), method },
          hint: 'declare Idempotency-Key on the mutating operations only',
        });
      }
    }
    const shared = model.operations.some((operation) => operation.responses.some((response) => response.headers.some((header) => headerKey(header.name) === REPLAY && header.component !== undefined)));
    if (!shared) return;
    const keyed = model.operations.filter((operation) => !SAFE_METHODS.has(operation.method) && requestHeaders(operation).some((header) => headerKey(header.name) === KEY));
    for (const { operation, response, at } of responsesWithout(keyed, REPLAY, isSuccess)) {
      report({
        location: siteLocation(at),
        messageId: 'replay-header-missing',
        data: { operation: describeOperation(operation), status: response.status, method: operation.method.toUpperCase() },
        hint: 'add the shared OpenWOP-Idempotent-Replay response header, as the keyed operations that declare it do',
      });
    }
  },
});
