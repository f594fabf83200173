import { COMMAND_ID_HEADER, OUTCOME_UNKNOWN_SENTENCE, OUTCOME_UNKNOWN_TYPE, unansweredError, type Bus, type RequestOptions } from '@pitwall/bus';
import { AppError } from '@pitwall/service-kit';
import type { ServicePresence } from './service-presence';

/** When a client may try a service again that has no instance now (the supervisor's or orchestrator's restart). */
export const ABSENT_SERVICE_RETRY_AFTER_SECONDS = 2;

/**
 * The bus as the gateway's routes use it for the clients' requests: a request for a service with no running
 * instance is a 503 at once (nothing was sent), one in flight when its service goes fails then rather than at the
 * bus timeout, and an unanswered write's 504 tells the client how to learn its outcome: by its `Idempotency-Key`,
 * or, when it sent none, to send one next time. Everything else is the bus's own.
 */
export function servicesBus(bus: Bus, presence?: ServicePresence): Bus {
  const send = <T>(service: string, call: () => Promise<T>, options: RequestOptions | undefined): Promise<T> => {
    const advised = (p: Promise<T>) => p.catch((err: unknown) => Promise.reject(withClientAdvice(err, options)));
    if (!presence) return advised(call());
    const sent = () => advised(presence.unlessGone(service, call(), () => withClientAdvice(goneInFlight(service, options), options)));
    const may = presence.mayServe(service);
    if (may === true) return sent();
    return Promise.resolve(may).then((served) => (served ? sent() : Promise.reject(absent(service))));
  };
  return {
    request: (service, type, payload, options) => send(service, () => bus.request(service, type, payload, options), options),
    requestEncoded: (service, type, payload, options) => send(service, () => bus.requestEncoded(service, type, payload, options), options),
    serve: (service, handler, options) => bus.serve(service, handler, options),
    publish: (exchange, routingKey, payload, headers) => bus.publish(exchange, routingKey, payload, headers),
    subscribe: (exchange, queue, bindingKeys, handler, options) => bus.subscribe(exchange, queue, bindingKeys, handler, options),
    isReady: () => bus.isReady(),
    consumerCount: (service) => bus.consumerCount(service),
    close: () => bus.close(),
  };
}

/** Nothing was sent: always safe to retry, once an instance is back. */
function absent(service: string): AppError {
  return new AppError(503, `The ${service} service has no running instance: the request was not sent and nothing was done; retry shortly`, { retryAfterSeconds: ABSENT_SERVICE_RETRY_AFTER_SECONDS });
}

/** Sent, and its service gone before it answered: a query is a 503 (it did nothing), a write's outcome is unknown. */
function goneInFlight(service: string, options: RequestOptions | undefined): AppError {
  const fallback = new AppError(503, `The ${service} service lost its last running instance before it answered; retry shortly`, { retryAfterSeconds: ABSENT_SERVICE_RETRY_AFTER_SECONDS });
  return unansweredError(options?.headers, fallback);
}

/** How the gateway names a client's command (operation-routes: `key:<Idempotency-Key>`, else `request:<uuid>`). */
const WITH_KEY = 'key:';
const WITHOUT_KEY = 'request:';

/** An outcome-unknown 504 of a client's write, its advice matching what the request carried. */
function withClientAdvice<E>(err: E, options: RequestOptions | undefined): E | AppError {
  const commandId = options?.headers?.[COMMAND_ID_HEADER];
  if (!(err instanceof AppError) || err.type !== OUTCOME_UNKNOWN_TYPE || !commandId) return err;
  let advice: string;
  if (commandId.startsWith(WITH_KEY)) advice = 'Retry it with the same Idempotency-Key to learn its outcome: it never runs twice';
  else if (commandId.startsWith(WITHOUT_KEY)) advice = 'It carried no Idempotency-Key, so a retry would be a new write: check whether it took effect before sending it again, and send an Idempotency-Key with each write next time, so that a retry is safe';
  else return err;
  const at = err.message.indexOf(OUTCOME_UNKNOWN_SENTENCE);
  const what = at < 0 ? `${err.message.replace(/\.?$/, '.')} ${OUTCOME_UNKNOWN_SENTENCE}` : err.message.slice(0, at + OUTCOME_UNKNOWN_SENTENCE.length);
  return new AppError(err.status, `${what}. ${advice}`, { type: err.type, ...(err.extensions ? { extensions: err.extensions } : {}), ...(err.retryAfterSeconds !== undefined ? { retryAfterSeconds: err.retryAfterSeconds } : {}) });
}
