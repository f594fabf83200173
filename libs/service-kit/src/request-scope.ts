import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The request being served, for what it reaches without being handed it: a pooled database connection checked out
 * for it, whose loss is logged with the request's id.
 */
const scope = new AsyncLocalStorage<{ requestId: string | undefined }>();

/** Runs `fn` (and what it starts) as part of the request `requestId`. */
export function inRequestScope<T>(requestId: string | undefined, fn: () => T): T {
  return scope.run({ requestId }, fn);
}

/** The id of the request the caller serves, if any. */
export function currentRequestId(): string | undefined {
  return scope.getStore()?.requestId;
}
