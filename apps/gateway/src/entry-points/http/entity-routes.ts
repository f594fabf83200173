import express, { type Request, type Response } from 'express';
import type { Bus, EncodedJson } from '@pitwall/bus';
import { AppError } from '@pitwall/service-kit';
import { CreateModel, ENTITY_COMMANDS, ENTITY_REPLY_HEADERS, ENTITY_TYPES, SERVICES, SearchBody, UpdateModel, type EntityTypeDef } from '@pitwall/contracts';
import { callerContext } from '../../domain/caller';
import { requireMember } from './authentication';
import { bindBody, bindBodyKeepingUnknown, bindQuery, includeList, objectBody, requireGuid } from './binding';

const INCLUDE = 'parametersToInclude';

/** The standard operations of wire.md §3 for every registry type, forwarded to the entity-service. */
export function entityRoutes(bus: Bus): express.Router {
  const router = express.Router();
  // Replies come back as the response body's JSON bytes: passed on as they are, never parsed and re-serialised.
  const call = (req: Request, type: string, payload: Record<string, unknown>) =>
    bus.requestEncoded(SERVICES.entity, type, { caller: callerContext(req.caller), ...payload }, { headers: { requestId: req.requestId } });

  const send = (res: Response, status: number, reply: EncodedJson) => {
    const modified = reply.headers[ENTITY_REPLY_HEADERS.lastModifiedTime];
    if (modified) res.setHeader('X-Last-Modified-Time', modified);
    res.status(status).type('application/json').send(reply.json);
  };

  for (const type of ENTITY_TYPES) {
    const base = `/${type.plural}`;
    const parentKeys = type.parents.map((p) => p.key);
    // One sub-router per type, mounted on its path: a request is matched against its own type's few routes only.
    const r = express.Router();
    router.use(base, r);

    if (type.features.search) {
      const search = async (req: Request, res: Response) => {
        const query = bindQuery(req, [INCLUDE]);
        const body = bindBody(SearchBody, req, objectBody(req));
        send(res, 200, await call(req, ENTITY_COMMANDS.search, { type: type.plural, body, include: includeList(query[INCLUDE]) }));
      };
      r.get('/Search', requireMember('account'), search);
      r.post('/Search', requireMember('account'), search);
      r.all('/Search', methodNotAllowed('GET, POST'));
    } else {
      // Without this, GET /Cars/Search would reach GET /Cars/:id and answer 400 for the id 'Search'.
      r.all('/Search', () => {
        throw AppError.notFound(`${type.plural} cannot be searched`);
      });
    }

    r.get('/:id', requireMember('entity'), async (req, res) => {
      const id = requireGuid('id', req.params['id'] as string);
      const query = bindQuery(req, [INCLUDE]);
      send(res, 200, await call(req, ENTITY_COMMANDS.get, { type: type.plural, id, include: includeList(query[INCLUDE]) }));
    });

    r.get('/', requireMember(type.parents.length ? 'entity' : 'account'), async (req, res) => {
      const query = bindQuery(req, [INCLUDE, ...parentKeys]);
      const parentIds = pickParents(type, query);
      send(res, 200, await call(req, ENTITY_COMMANDS.list, { type: type.plural, parentIds, include: includeList(query[INCLUDE]) }));
    });

    r.post('/', requireMember(type.parents.length ? 'entity' : 'account', true), async (req, res) => {
      const query = bindQuery(req, parentKeys);
      const { parents: bodyParents, rest } = splitParentKeys(type, objectBody(req));
      const { value: body, unknown: bindingErrors } = bindBodyKeepingUnknown(CreateModel, req, rest);
      const parentIds = { ...pickParents(type, bodyParents), ...pickParents(type, query) };
      const reply = await call(req, ENTITY_COMMANDS.create, { type: type.plural, parentIds, body, bindingErrors });
      const id = reply.headers[ENTITY_REPLY_HEADERS.entityId];
      if (id) res.setHeader('Location', `${base}/${id}`);
      send(res, 201, reply);
    });

    r.put('/:id', requireMember('entity', true), async (req, res) => {
      const id = requireGuid('id', req.params['id'] as string);
      bindQuery(req, []);
      const { value: body, unknown: bindingErrors } = bindBodyKeepingUnknown(UpdateModel, req, objectBody(req));
      send(res, 200, await call(req, ENTITY_COMMANDS.update, { type: type.plural, id, body, bindingErrors }));
    });

    r.delete('/:id', requireMember('entity', true), async (req, res) => {
      const id = requireGuid('id', req.params['id'] as string);
      bindQuery(req, []);
      await call(req, ENTITY_COMMANDS.delete, { type: type.plural, id });
      res.status(204).end();
    });

    r.all('/', methodNotAllowed('GET, POST'));
    r.all('/:id', methodNotAllowed('GET, PUT, DELETE'));
  }
  return router;
}

/** Another method on a path that exists: 405 with the methods it has (`Allow`), not a 404 saying it does not exist. */
function methodNotAllowed(allow: string): express.RequestHandler {
  return (req, res, next) => {
    if (req.method === 'OPTIONS') return next();
    res.setHeader('Allow', allow);
    throw new AppError(405, `${req.method} is not supported on ${req.baseUrl}${req.path === '/' ? '' : req.path}; it answers ${allow}`);
  };
}

function pickParents(type: EntityTypeDef, source: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { key } of type.parents) {
    const value = source[key];
    if (value === undefined || value === null || value === '') continue;
    if (typeof value !== 'string') throw AppError.badRequest(`${key} must be a GUID string`, { [key]: ['must be a GUID string'] });
    out[key] = requireGuid(key, value);
  }
  return out;
}

/** Parent ids may travel in the create body (wire.md §3): take them out before the strict CreateModel check. */
function splitParentKeys(type: EntityTypeDef, body: Record<string, unknown>): { parents: Record<string, unknown>; rest: Record<string, unknown> } {
  const keys = new Map(type.parents.map((p) => [p.key.toLowerCase(), p.key]));
  const parents: Record<string, unknown> = Object.create(null);
  const rest: Record<string, unknown> = Object.create(null);
  for (const [k, v] of Object.entries(body)) {
    const parentKey = keys.get(k.toLowerCase());
    if (parentKey) parents[parentKey] = v;
    else rest[k] = v;
  }
  return { parents, rest };
}
