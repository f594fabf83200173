import type { IncomingMessage } from 'node:http';
import express from 'express';
import type { Bus } from '@pitwall/bus';
import { SERVICES } from '@pitwall/contracts';
import { healthRouter, notFoundHandler, problemHandler, requestContext, type HealthChecks, type Logger } from '@pitwall/service-kit';
import type { Authenticator } from './domain/caller';
import { authenticate } from './entry-points/http/authentication';
import { entityRoutes } from './entry-points/http/entity-routes';
import { serviceDocuments } from './entry-points/http/service-documents';

export interface GatewayDeps {
  bus: Bus;
  auth: Authenticator;
  logger: Logger;
  /** Extra readiness checks (database, cache) beside the bus and the services behind it. */
  checks?: HealthChecks;
  /** JSON body limit, e.g. '1mb'. */
  bodyLimit?: string;
}

/** The only public HTTP entry: request ids, auth, validation, routing onto the bus, problem+json errors. */
export function buildGateway(deps: GatewayDeps): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  app.use(requestContext(deps.logger));
  app.use(
    healthRouter({
      ...deps.checks,
      bus: () => deps.bus.isReady(),
      'entity-service': async () => (await deps.bus.request(SERVICES.entity, 'ping', {}, { timeoutMs: 1500 })) === 'pong',
    }),
  );
  app.use(serviceDocuments());
  // JSON bodies (GETs may carry one too: search, and the older wrappers' `{}`).
  app.use(express.json({ limit: deps.bodyLimit ?? '1mb', type: isJsonBody }));
  app.use(rejectNonJsonBodies);

  app.get('/Accounts/GetAll', authenticate(deps.auth, { accountOptional: true }), async (req, res) => {
    res.json(await deps.auth.listAccounts(req.caller.userId));
  });

  app.use(authenticate(deps.auth), entityRoutes(deps.bus));
  app.use(notFoundHandler);
  app.use(problemHandler(deps.logger));
  return app;
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/** JSON bodies: declared JSON, or a GET body sent with no Content-Type at all (wire.md §1: search, the wrappers' `{}`). */
function isJsonBody(req: IncomingMessage): boolean {
  const type = req.headers['content-type'];
  return type === undefined ? req.method === 'GET' : JSON_TYPE.test(type);
}

/** A write with a body that is not JSON is refused (415) rather than silently read as empty. */
const rejectNonJsonBodies: express.RequestHandler = (req, res, next) => {
  const hasBody = Number(req.header('content-length') ?? 0) > 0 || req.header('transfer-encoding') !== undefined;
  const type = req.header('content-type');
  // Writes need JSON; a GET body (search, the wrappers' `{}`) may come without a type, but not with another one.
  const refused = req.method === 'POST' || req.method === 'PUT' ? !req.is(['application/json', 'application/*+json']) : type !== undefined && !req.is(['application/json', 'application/*+json']);
  if (hasBody && refused) {
    res.status(415);
    next(Object.assign(new Error(`Content-Type ${req.header('content-type') ?? '(none)'} is not supported; send application/json`), { status: 415, expose: true }));
    return;
  }
  next();
};
