import querystring from 'node:querystring';
import express, { type RequestHandler } from 'express';
import type { BlobStore, UrlSigner } from '@pitwall/blob-store';
import type { Bus, ClaimRedeemer, ServicePresence } from '@pitwall/bus';
import { OPERATIONS, REQUEST_LIMITS, SERVICES, type Operation } from '@pitwall/contracts';
import { AppError, closeAfterAnswer, healthRouter, notFoundHandler, problemHandler, requestContext, type HealthChecks, type Logger, type Metrics } from '@pitwall/service-kit';
import type { Authenticator } from './domain/caller';
import type { HeldAnswers } from './domain/held-answers';
import type { ReadLimiter } from './domain/read-limiter';
import { servicesBus } from './domain/services-bus';
import { attachedFileTransfer } from './entry-points/http/attached-file-transfer';
import { authenticate } from './entry-points/http/authentication';
import { operationRoutes, type GatewayHandler } from './entry-points/http/operation-routes';
import { ResponseEncoder, type ResponseCompressionSettings } from './entry-points/http/response-encoding';
import { serviceDocuments } from './entry-points/http/service-documents';
import { viewerPage } from './entry-points/http/viewer-page';

export interface GatewayDeps {
  bus: Bus;
  auth: Authenticator;
  logger: Logger;
  /** The gateway's Prometheus metrics: each answer's time goes into their HTTP histogram (served on the internal port). */
  metrics?: Metrics;
  /** Extra readiness checks (database, cache) beside the bus and the services behind it. */
  checks?: HealthChecks;
  /** JSON body limit, e.g. '1mb'. */
  bodyLimit?: string;
  /** Per-user concurrency of the data file reads (counted in the shared cache). */
  readLimiter?: ReadLimiter;
  /** The operation table the routes are mounted from (tests pass their own)... */
  operations?: readonly Operation[];
  /** ...and the gateway-local handlers their operations name, beside the built-in ones. */
  handlers?: Record<string, GatewayHandler>;
  /** Attached file bytes: the store they stream to and from, the signer of their URLs, the upload cap. */
  attachments?: { blobs: BlobStore; signer: UrlSigner; maxUploadBytes: number };
  /** Where the telemetry viewer's built assets are (served at /viewer); none: /viewer is not served. */
  viewerDir?: string;
  /** Partition queues per partitioned service (`TIMING_PARTITIONS` for the timing-service). */
  partitions?: Readonly<Record<string, number>>;
  /** Which services have a running instance: a request for one without is a 503 at once, and readiness names it. */
  presence?: ServicePresence;
  /** A write's wait for its service: `BUS_TIMEOUT_MS` plus `BUS_TIMEOUT_MS_PER_MB` per MiB of its JSON body. */
  commandTimeout?: { baseMs: number; perMbMs: number };
  /** Fetches the large answers services reply with a claim for. */
  claims?: ClaimRedeemer;
  /** Large read answers kept for the same request's next time, whose service then only says they still are the answer. */
  heldAnswers?: HeldAnswers;
  /** Compression of the answers by their Accept-Encoding (RESPONSE_COMPRESSION, RESPONSE_COMPRESSION_MIN_BYTES); default on, from 8 KiB. */
  responseCompression?: ResponseCompressionSettings;
}

/** API answers carry account data: never sniffed as another type, never kept by a cache on the way. */
const API_ANSWER_HEADERS = new Map([
  ['X-Content-Type-Options', 'nosniff'],
  ['Cache-Control', 'no-store'],
]);

/** Pairs one query string may carry (MAX_QUERY_PARAMETERS): keep it above the most an operation takes (MAX_SIMULATION_SETUPS `setupIds`). */
export const MAX_QUERY_PARAMETERS = REQUEST_LIMITS.MAX_QUERY_PARAMETERS;

/** A query of more than MAX_QUERY_PARAMETERS pairs is a 400, before anything reads it (the parser keeps that many). */
const tooManyQueryParameters: RequestHandler = (req, _res, next) => {
  const at = req.originalUrl.indexOf('?');
  let pairs = 0;
  if (at >= 0) for (let i = at; i !== -1 && pairs <= MAX_QUERY_PARAMETERS; i = req.originalUrl.indexOf('&', i + 1)) pairs++;
  if (pairs > MAX_QUERY_PARAMETERS) next(AppError.badRequest(`The query string has more than ${MAX_QUERY_PARAMETERS} parameters, the most one request may carry (MAX_QUERY_PARAMETERS)`));
  else next();
};

/**
 * A transfer coding other than chunked (`Transfer-Encoding: gzip, chunked`) is a 501 (RFC 9112 §6.1), its body
 * unread: Node's parser takes the chunks off and nothing else, so the body would be taken still gzipped. A compressed
 * body says so with Content-Encoding. (A coding list not ending in chunked is Node's own 400.)
 */
const onlyChunkedTransferCoding: RequestHandler = (req, res, next) => {
  const codings = req.headers['transfer-encoding'];
  if (codings === undefined || codings.split(',').every((coding) => coding.trim().toLowerCase() === 'chunked')) return next();
  closeAfterAnswer(req, res);
  next(new AppError(501, `Transfer-Encoding ${JSON.stringify(codings.slice(0, 100))}: only chunked is taken (say a compressed body with Content-Encoding); nothing was done`));
};

/** The only public HTTP entry: request ids, auth, validation, routing onto the bus, problem+json errors. */
export function buildGateway(deps: GatewayDeps): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // Node's query string parser keeps the first 1,000 pairs and drops the rest without a word: every pair is kept, up
  // to MAX_QUERY_PARAMETERS, and a query of more is refused (tooManyQueryParameters) rather than read in part.
  app.set('query parser', (text: string) => querystring.parse(text, '&', '=', { maxKeys: MAX_QUERY_PARAMETERS }));
  app.use(requestContext(deps.logger, deps.metrics));
  // Every answer, a problem included (a 405 or a malformed path on /viewer, a refused query), is no-store and nosniff
  // unless its handler says otherwise (the viewer's assets and the API description: no-cache, with an ETag).
  app.use((_req, res, next) => {
    res.setHeaders(API_ANSWER_HEADERS);
    next();
  });
  app.use(tooManyQueryParameters);
  app.use(onlyChunkedTransferCoding);
  const bus = servicesBus(deps.bus, deps.presence);
  const encoder = new ResponseEncoder(deps.responseCompression);
  const transfer = deps.attachments ? attachedFileTransfer({ bus, blobs: deps.attachments.blobs, maxUploadBytes: deps.attachments.maxUploadBytes }) : {};
  // The operations first: a request is matched by its first path segment at once (`operationRoutes`), and only a
  // path outside the table (/swagger, /viewer, /health: no operation's first segment) goes on to the routers below.
  app.use(
    operationRoutes(deps.operations ?? OPERATIONS, {
      bus,
      auth: deps.auth,
      handlers: { ...gatewayHandlers(deps.auth), ...transfer, ...deps.handlers },
      ...(deps.bodyLimit ? { bodyLimit: deps.bodyLimit } : {}),
      ...(deps.readLimiter ? { readLimiter: deps.readLimiter } : {}),
      ...(deps.attachments ? { signer: deps.attachments.signer } : {}),
      ...(deps.partitions ? { partitions: deps.partitions } : {}),
      ...(deps.commandTimeout ? { commandTimeout: deps.commandTimeout } : {}),
      ...(deps.claims ? { claims: deps.claims } : {}),
      ...(deps.heldAnswers ? { heldAnswers: deps.heldAnswers } : {}),
      encoder,
    }),
  );
  app.use(serviceDocuments(encoder));
  if (deps.viewerDir) app.use(viewerPage(deps.viewerDir, encoder));
  app.use(
    healthRouter({
      ...deps.checks,
      bus: () => deps.bus.isReady(),
      // Down at once while its request queue has no consumer (a ping would only queue and answer late), else it must answer.
      'entity-service': async () => (await deps.bus.consumerCount(SERVICES.entity)) > 0 && (await deps.bus.request(SERVICES.entity, 'ping', {}, { timeoutMs: 1500 })) === 'pong',
      ...(deps.presence ? presenceChecks(deps.presence) : {}),
    }),
  );
  // Any other path needs a key too: an unauthenticated caller learns nothing about which paths exist.
  app.use(authenticate(deps.auth));
  app.use(notFoundHandler);
  app.use(problemHandler(deps.logger));
  return app;
}

/**
 * The other services behind the gateway, each degraded while its request queue has no consumer: the gateway stays
 * ready (its requests for that service answer 503 at once, every other route is served), so a load balancer keeps it.
 */
function presenceChecks(presence: ServicePresence): HealthChecks {
  return Object.fromEntries([SERVICES.timing, SERVICES.simulation, SERVICES.datafile].map((service) => [`${service}-service`, async () => (await presence.isPresent(service)) || 'degraded']));
}

/** The operations the gateway answers itself, by the name the table gives them. */
function gatewayHandlers(auth: Authenticator): Record<string, GatewayHandler> {
  return {
    listAccounts: (caller) => auth.listAccounts(caller.userId),
  };
}
