import { z } from 'zod';
import { REQUEST_LIMIT_DEFAULTS, type RequestLimitName } from '@pitwall/contracts';
import { AMQP_URL, DEFAULT_SHUTDOWN_GRACE_MS, MAX_SHUTDOWN_GRACE_MS, POSTGRES_URL, hostVar, intVar, msVar, portVar, prefixVar, secondsVar, urlVar } from '@pitwall/service-kit';

/** The bus settings, declared once: every service, the gateway and the one-process stack read these. */
export const BusSettings = z.object({
  /** RabbitMQ; unset only where an in-process bus is shared (`npm start`, component tests). */
  AMQP_URL: urlVar(AMQP_URL).optional(),
  /** Prefix of every queue and exchange name, so stacks can share a broker. */
  BUS_PREFIX: prefixVar('pitwall.'),
  /** Default timeout of a request over the bus (ms, at least 1). */
  BUS_TIMEOUT_MS: msVar(10_000),
  /** Events published and not yet confirmed by RabbitMQ at most, per process; later ones wait their turn, in order. */
  BUS_PUBLISH_WINDOW: intVar(1024),
  /**
   * The broker's `max_message_size` (bytes; RabbitMQ 3.13's 128 MiB by default; set 16777216 for 4.x's default): a
   * request, reply or event over it is a 413 here instead of a channel the broker closes under every request in flight.
   */
  BUS_MAX_MESSAGE_BYTES: intVar(128 * 1024 * 1024, { min: 1024 * 1024 }),
  /**
   * How often a process looks whether each service it sends requests to has a running instance (ms, default 500, 50 to
   * 60000): a request for one without is a 503 at once, not a wait of BUS_TIMEOUT_MS.
   */
  SERVICE_PRESENCE_INTERVAL_MS: msVar(500, { min: 50, max: 60_000 }),
});

/** MAX_PARAMETER_UPDATES and the other bounds of a request's lists, each a whole number of 1 or more with its default. */
function requestLimitSettings(): { [K in RequestLimitName]: ReturnType<typeof intVar> } {
  return Object.fromEntries(Object.entries(REQUEST_LIMIT_DEFAULTS).map(([name, fallback]) => [name, intVar(fallback)])) as { [K in RequestLimitName]: ReturnType<typeof intVar> };
}

/** How a process stops, declared once: every service, the gateway and the one-process stack read it. */
export const ShutdownSettings = z.object({
  /**
   * On SIGTERM, the longest the requests a process took have to be answered (ms, default 8000, at most 300000; 0: none
   * wait): past it their connections are cut (logged with the requests cut), and the process exits 2 s later at most.
   */
  SHUTDOWN_GRACE_MS: msVar(DEFAULT_SHUTDOWN_GRACE_MS, { min: 0, max: MAX_SHUTDOWN_GRACE_MS }),
});

/** Settings every service reads (each key is its environment variable), merged with the service's own. */
export const BaseServiceConfig = BusSettings.extend({
  ...ShutdownSettings.shape,
  /** PostgreSQL; required by a service that owns a schema. */
  DATABASE_URL: urlVar(POSTGRES_URL).optional(),
  /** Port of the internal health endpoint (0 picks a free one). */
  HEALTH_PORT: portVar(0),
  /** Interface of the internal health endpoint: loopback unless configured (a container sets 0.0.0.0 if probed from outside). */
  HEALTH_HOST: hostVar('127.0.0.1'),
  /**
   * Seconds a starting service waits for its database to accept connections (default 60; 0: one try): a database
   * still starting, failing over or not yet resolvable delays the start, logged at every try, instead of ending it.
   */
  STARTUP_WAIT_S: secondsVar(60, { min: 0 }),
  /**
   * PostgreSQL's statement_timeout on every pooled connection (ms, default 120000; 0: none): a statement running longer
   * (a runaway query, a lock wait past any caller's deadline) is cancelled, its transaction rolled back, and the request
   * answered 503 naming this variable. Migrations are not bounded by it.
   */
  DB_STATEMENT_TIMEOUT_MS: msVar(120_000, { min: 0 }),
  /**
   * PostgreSQL's idle_in_transaction_session_timeout (ms, default 60000; 0: none): a connection left idle inside a
   * transaction this long (its process stopped or stuck) is ended by the server, and the locks it held are freed.
   */
  DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: msVar(60_000, { min: 0 }),
  /** Where the worker pools' bundles are (a relative `entry` is resolved there); default: the running bundle's folder. */
  WORKER_DIR: z.string().min(1).optional(),
  // The bounds of a request's lists, which the contracts read when they load: checked here as every other setting, so
  // a bad one stops the start naming it (the contracts keep their default meanwhile).
  ...requestLimitSettings(),
});
export type BaseServiceConfig = z.infer<typeof BaseServiceConfig>;
