import { STATUS_CODES } from 'node:http';
import { errorFields } from './logger';

/** Field path → messages, as the problem+json `errors` member carries them. */
export type FieldErrors = Record<string, string[]>;

export interface AppErrorOptions {
  /** Programmer or infrastructure failure: logged at error level with the stack; the caller sees only a 500/503 title. */
  catastrophic?: boolean;
  errors?: FieldErrors;
  cause?: unknown;
  title?: string;
  /** Seconds after which a retry may succeed: sent as `Retry-After` (a 503 while a resource is busy). */
  retryAfterSeconds?: number;
  /** The problem `type` URI naming this case (e.g. the outcome of a write is unknown); `about:blank` when absent. */
  type?: string;
  /** Extension members of the problem details (e.g. `commandId`). */
  extensions?: Record<string, string | number>;
}

/** The one error type every layer throws; the central handlers map it to problem+json. */
export class AppError extends Error {
  readonly status: number;
  readonly catastrophic: boolean;
  readonly errors?: FieldErrors;
  readonly title: string;
  readonly retryAfterSeconds?: number;
  readonly type?: string;
  readonly extensions?: Record<string, string | number>;

  constructor(status: number, detail: string, options: AppErrorOptions = {}) {
    super(detail, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.status = status;
    this.catastrophic = options.catastrophic ?? false;
    this.errors = options.errors;
    this.title = options.title ?? STATUS_CODES[status] ?? 'Error';
    if (options.retryAfterSeconds !== undefined) this.retryAfterSeconds = options.retryAfterSeconds;
    if (options.type !== undefined) this.type = options.type;
    if (options.extensions !== undefined) this.extensions = options.extensions;
  }

  static badRequest(detail: string, errors?: FieldErrors): AppError {
    return new AppError(400, detail, { errors });
  }
  static unauthorized(detail: string): AppError {
    return new AppError(401, detail);
  }
  static forbidden(detail: string): AppError {
    return new AppError(403, detail);
  }
  static notFound(detail: string): AppError {
    return new AppError(404, detail);
  }
  static conflict(detail: string): AppError {
    return new AppError(409, detail);
  }
  static unavailable(detail: string, cause?: unknown): AppError {
    return new AppError(503, detail, { cause });
  }
  /** The database could not be had in time (a long transaction holds it): retry after `retryAfterSeconds`. */
  static busy(detail: string, retryAfterSeconds: number, cause?: unknown): AppError {
    return new AppError(503, detail, { cause, retryAfterSeconds });
  }
  static timeout(detail: string): AppError {
    return new AppError(504, detail);
  }
}

/** Anything thrown, as an AppError: unknown errors become a catastrophic 500 that hides its message. */
export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (isSerializedAppError(err)) return fromSerialized(err);
  if (isStatementTimeout(err)) return AppError.busy('A database statement of this request ran past DB_STATEMENT_TIMEOUT_MS and was cancelled; nothing was changed', DATABASE_BUSY_RETRY_AFTER_SECONDS, err);
  if (isDatabaseBusy(err)) return AppError.busy('The database is busy with other work; retry shortly', DATABASE_BUSY_RETRY_AFTER_SECONDS, err);
  if (isIndexRowTooLarge(err)) return AppError.badRequest('A value of this request is too long for the database to index (a value by which entities are found, such as a text parameter named EventId or CarId, may have at most about 2,700 bytes); nothing was changed');
  if (isTransactionConflict(err)) return AppError.busy('The request met a concurrent change of the same data and was rolled back; nothing was changed, retry it', DATABASE_BUSY_RETRY_AFTER_SECONDS, err);
  if (isDatabaseConnectionLost(err)) return AppError.busy('The connection to the database was lost; the request was not completed, retry it', DATABASE_BUSY_RETRY_AFTER_SECONDS, err);
  // A bare socket error names no source: node-postgres passes the socket's own up, and so may any other client.
  if (isSocketLost(err)) return AppError.busy('A connection the request needed was lost; the request was not completed, retry it', DATABASE_BUSY_RETRY_AFTER_SECONDS, err);
  return new AppError(500, 'An unexpected error occurred', { catastrophic: true, cause: err });
}

/** The form an AppError takes inside a bus reply. */
export interface SerializedAppError {
  status: number;
  title: string;
  detail: string;
  errors?: FieldErrors;
  retryAfterSeconds?: number;
  type?: string;
  extensions?: Record<string, string | number>;
  /**
   * For the caller's log only (never a client's answer): what failed underneath a 5xx that is not catastrophic, as
   * `causeFields` reads it (`runRequestHandler` sets it).
   */
  cause?: CauseFields;
}

export function serializeAppError(err: AppError): SerializedAppError {
  const out: SerializedAppError = { status: err.status, title: err.title, detail: err.status >= 500 && err.catastrophic ? 'An unexpected error occurred' : err.message };
  if (err.errors) out.errors = err.errors;
  if (err.retryAfterSeconds !== undefined) out.retryAfterSeconds = err.retryAfterSeconds;
  if (err.type) out.type = err.type;
  if (err.extensions) out.extensions = err.extensions;
  return out;
}

export function fromSerialized(s: SerializedAppError): AppError {
  return new AppError(s.status, s.detail, { errors: s.errors, title: s.title, retryAfterSeconds: s.retryAfterSeconds, ...(s.type ? { type: s.type } : {}), ...(s.extensions ? { extensions: s.extensions } : {}), ...(s.cause ? { cause: causeFromFields(s.cause) } : {}) });
}

/** Where the dependency an error came from is written on it (a symbol: never serialised, never sent). */
const DEPENDENCY = Symbol.for('pitwall.dependency');

/**
 * Marks `err` as coming from `dependency` (`PostgreSQL`, ...), for the log lines that report it: a bare socket error
 * (`connect ECONNREFUSED 127.0.0.1:5432`) names no source of its own. Returns `err`.
 */
export function markDependency<E>(err: E, dependency: string): E {
  if (typeof err === 'object' && err !== null && !(DEPENDENCY in err)) Object.defineProperty(err, DEPENDENCY, { value: dependency, enumerable: false });
  return err;
}

/** The dependency `err` came from: marked (`markDependency`), or PostgreSQL's own error (it carries a severity). */
export function dependencyOf(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const marked = (err as { [DEPENDENCY]?: unknown })[DEPENDENCY];
  if (typeof marked === 'string') return marked;
  const { severity, code } = err as { severity?: unknown; code?: unknown };
  return typeof severity === 'string' && typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? 'PostgreSQL' : undefined;
}

/** What a log line says of an error's cause: the dependency it came from when known, its reason and code. */
export interface CauseFields {
  dependency?: string;
  cause: string;
  code?: string;
}

/**
 * The cause of an expected 5xx for its log line (never for the client, whose detail names no internals): the
 * dependency and the cause's own words (`connect ECONNREFUSED 127.0.0.1:5432`); undefined when it has no cause.
 */
export function causeFields(err: AppError): CauseFields | undefined {
  const cause = err.cause;
  if (cause === undefined || cause === null) return undefined;
  const { reason, code } = errorFields(cause);
  const dependency = dependencyOf(cause);
  return { ...(dependency ? { dependency } : {}), cause: reason, ...(code ? { code } : {}) };
}

function causeFromFields(fields: CauseFields): Error {
  const err = Object.assign(new Error(fields.cause), fields.code ? { code: fields.code } : {});
  return fields.dependency ? markDependency(err, fields.dependency) : err;
}

function isSerializedAppError(v: unknown): v is SerializedAppError {
  return typeof v === 'object' && v !== null && typeof (v as SerializedAppError).status === 'number' && typeof (v as SerializedAppError).detail === 'string' && !(v instanceof Error);
}

const DATABASE_BUSY_RETRY_AFTER_SECONDS = 1;

/**
 * PostgreSQL could not take the statement now, which a retry may not meet: SQLSTATE 57P03 cannot_connect_now (also
 * what the embedded server answers when its single session stays held past its bound), 53300 too_many_connections,
 * 53200 out_of_memory (its shared lock table full, while another transaction holds thousands of locks),
 * or node-postgres' pool giving up waiting for a connection.
 */
function isDatabaseBusy(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  return code === '57P03' || code === '53300' || code === '53200' || err.message === 'timeout exceeded when trying to connect';
}

/** PostgreSQL cancelled the statement (SQLSTATE 57014 query_canceled): its statement_timeout, or an operator's cancel. */
function isStatementTimeout(err: unknown): boolean {
  return err instanceof Error && (err as { code?: unknown }).code === '57014';
}

/** PostgreSQL could not index a value this long (SQLSTATE 54000 program_limit_exceeded, "index row size ... exceeds"). */
function isIndexRowTooLarge(err: unknown): boolean {
  return err instanceof Error && (err as { code?: unknown }).code === '54000' && /^index row (size|requires)/.test(err.message);
}

/**
 * PostgreSQL rolled the transaction back for another's sake (SQLSTATE 40P01 deadlock_detected, 40001
 * serialization_failure): nothing of it was kept, and a retry meets the other transaction ended.
 */
function isTransactionConflict(err: unknown): boolean {
  const code = err instanceof Error ? (err as { code?: unknown }).code : undefined;
  return code === '40P01' || code === '40001';
}

/** SQLSTATE classes and codes of a connection the server ended or could not keep: 08 (connection exception), 57P01/57P02. */
const CONNECTION_LOST_CODES = new Set(['57P01', '57P02', '57P05']);
const CONNECTION_LOST_ERRNOS = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * The database connection went away under the statement (terminated by an administrator or a failover, the server
 * restarting, the network cut): node-postgres' "Connection terminated", SQLSTATE 57P01 admin_shutdown, 57P02
 * crash_shutdown, class 08, or a socket error. The transaction did not commit (unless the loss hit its COMMIT, which
 * a retry with the same Idempotency-Key settles), so the request is a 503 to retry, and the client is discarded.
 */
export function isConnectionLost(err: unknown): boolean {
  return isDatabaseConnectionLost(err) || isSocketLost(err);
}

/** Name lookups that fail while a network is coming up (a container's peers not registered yet). */
const NOT_RESOLVED_YET_ERRNOS = new Set(['ENOTFOUND', 'EAI_AGAIN']);

/**
 * The database cannot be reached or take a session now, which waiting may change: a lost or refused connection, a
 * server starting up or full (57P03, 53300), a pool that gave up waiting, a connection or statement past its timeout
 * (a host that drops packets), or a host name not resolvable yet. Not an authentication failure, an unknown database
 * or any other answer the server gave about the request itself.
 */
export function isDatabaseUnreachable(err: unknown): boolean {
  const code = errnoOf(err);
  const message = (err as { message?: unknown } | null)?.message;
  return (
    isConnectionLost(err) ||
    isDatabaseBusy(err) ||
    (code !== undefined && NOT_RESOLVED_YET_ERRNOS.has(code)) ||
    (typeof message === 'string' && /^(Connection terminated due to connection timeout|timeout expired|Query read timeout)/.test(message))
  );
}

/** The loss in PostgreSQL's or node-postgres' own words: a SQLSTATE of a lost connection, or the driver's message. */
function isDatabaseConnectionLost(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && (CONNECTION_LOST_CODES.has(code) || code.startsWith('08'))) return true;
  return /^Connection terminated|^Client has encountered a connection error and is not queryable|^Client was closed and is not queryable/.test(err.message);
}

/** A socket error (reset, refused, timed out, unreachable), whatever client it came through. */
function isSocketLost(err: unknown): boolean {
  const code = errnoOf(err);
  return code !== undefined && CONNECTION_LOST_ERRNOS.has(code);
}

/**
 * The errno code of a system error. Read without `instanceof Error`: Node's own errors (net, dns) are made in its
 * realm, which is not a test sandbox's (jest's vm context), and an AggregateError of several addresses carries it too.
 */
function errnoOf(err: unknown): string | undefined {
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}

/**
 * The problem `type` of a command that was sent and whose reply never came (the connection was lost while waiting,
 * the caller's time ran out, or the database connection went during its COMMIT): it may or may not have taken effect.
 * A retry with the same command id (the client's `Idempotency-Key`) is safe: it returns the first outcome, or runs the
 * command if it never did.
 */
export const OUTCOME_UNKNOWN_TYPE = 'urn:pitwall:problem:outcome-unknown';
/** The sentence of an outcome-unknown problem's detail saying so, after what was not answered (its sender's advice follows). */
export const OUTCOME_UNKNOWN_SENTENCE = 'The command was sent: it may or may not have taken effect';
