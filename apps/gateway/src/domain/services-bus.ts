import { COMMAND_ID_HEADER, failFastBus, OUTCOME_UNKNOWN_SENTENCE, OUTCOME_UNKNOWN_TYPE, type Bus, type RequestOptions, type ServicePresence } from '@pitwall/bus';
import { SERVICES } from '@pitwall/contracts';
import { AppError } from '@pitwall/service-kit';

export { ABSENT_SERVICE_RETRY_AFTER_SECONDS } from '@pitwall/bus';

/**
 * The bus as the gateway's routes use it for the clients' requests: a request for a service with no running
 * instance is a 503 at once (nothing was sent), one in flight when its service goes fails then rather than at the
 * bus timeout (`failFastBus`), and an unanswered write's 504 tells the client how to learn its outcome: by its
 * `Idempotency-Key`, or, when it sent none, to send one next time; a timing update, an upsert on its timing keys that
 * changes nothing the second time (docs/timing.md), may simply be sent again. Everything else is the bus's own.
 */
export function servicesBus(bus: Bus, presence?: ServicePresence): Bus {
  return failFastBus(bus, presence, withClientAdvice);
}

/** How the gateway names a client's command (operation-routes: `key:<Idempotency-Key>`, else `request:<uuid>`). */
const WITH_KEY = 'key:';
const WITHOUT_KEY = 'request:';

/** An outcome-unknown 504 of a client's write, its advice matching what the request carried. */
function withClientAdvice<E>(err: E, options: RequestOptions | undefined, service: string): E | AppError {
  const commandId = options?.headers?.[COMMAND_ID_HEADER];
  if (!(err instanceof AppError) || err.type !== OUTCOME_UNKNOWN_TYPE || !commandId) return err;
  let advice: string;
  if (commandId.startsWith(WITH_KEY)) advice = 'Retry it with the same Idempotency-Key to learn its outcome: it never runs twice';
  else if (commandId.startsWith(WITHOUT_KEY) && service === SERVICES.timing) advice = 'A timing update is an upsert on its timing keys: send the same update again, which changes nothing if it took effect';
  else if (commandId.startsWith(WITHOUT_KEY)) advice = 'It carried no Idempotency-Key, so a retry would be a new write: check whether it took effect before sending it again, and send an Idempotency-Key with each write next time, so that a retry is safe';
  else return err;
  const at = err.message.indexOf(OUTCOME_UNKNOWN_SENTENCE);
  const what = at < 0 ? `${err.message.replace(/\.?$/, '.')} ${OUTCOME_UNKNOWN_SENTENCE}` : err.message.slice(0, at + OUTCOME_UNKNOWN_SENTENCE.length);
  return new AppError(err.status, `${what}. ${advice}`, { type: err.type, ...(err.extensions ? { extensions: err.extensions } : {}), ...(err.retryAfterSeconds !== undefined ? { retryAfterSeconds: err.retryAfterSeconds } : {}) });
}
