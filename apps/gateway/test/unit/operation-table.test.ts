import type express from 'express';
import { OPERATIONS, buildOpenApiDocument } from '@pitwall/contracts';
import { PitwallClient } from '@pitwall/client';
import { createLogger } from '@pitwall/service-kit';
import { InProcessBus } from '@pitwall/bus';
import { buildGateway } from '../../src/app';
import { fakeAuth } from '../support/gateway-harness';

interface RouterLayer {
  rawPath?: string;
  route?: { path: string; methods: Record<string, boolean> };
  handle: { stack?: RouterLayer[] };
}

/** `METHOD /path/{param}` of every route the gateway mounted (405/404 catch-alls, mounted with `all`, left out). */
function mountedRoutes(app: express.Express): string[] {
  const out: string[] = [];
  const walk = (layers: RouterLayer[], prefix: string) => {
    for (const layer of layers) {
      if (layer.route) {
        const path = `${prefix}${layer.route.path === '/' ? '' : layer.route.path}`.replace(/:(\w+)/g, '{$1}');
        for (const method of Object.keys(layer.route.methods).filter((m) => m !== '_all')) out.push(`${method.toUpperCase()} ${path || '/'}`);
      } else if (layer.handle.stack) {
        walk(layer.handle.stack, typeof layer.rawPath === 'string' && layer.rawPath !== '/' ? `${prefix}${layer.rawPath}` : prefix);
      }
    }
  };
  walk((app as unknown as { router: { stack: RouterLayer[] } }).router.stack, '');
  return out.sort();
}

const tableRoutes = () => OPERATIONS.map((op) => `${op.method.toUpperCase()} ${op.path}`).sort();

describe('the operation table', () => {
  test('when operations are listed, then each has a unique operationId and a unique method and path', () => {
    expect(new Set(OPERATIONS.map((op) => op.operationId)).size).toBe(OPERATIONS.length);
    expect(new Set(tableRoutes()).size).toBe(OPERATIONS.length);
  });

  test('when the gateway is built, then its routes are exactly the table (no more, no less)', () => {
    const app = buildGateway({ bus: new InProcessBus({ logger: createLogger('t', 'silent') }), auth: fakeAuth, logger: createLogger('t', 'silent') });
    const apiRoutes = mountedRoutes(app).filter((r) => !/ \/(health|swagger)\b/.test(r));
    expect(apiRoutes).toEqual(tableRoutes());
  });

  test('when the OpenAPI document is generated, then its operations and operationIds are exactly the table', () => {
    const doc = buildOpenApiDocument();
    const documented = Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
      Object.entries(item as Record<string, { operationId?: string }>).map(([method, op]) => ({ route: `${method.toUpperCase()} ${path}`, operationId: op.operationId })),
    );
    expect(documented.map((d) => d.route).sort()).toEqual(tableRoutes());
    expect(documented.map((d) => d.operationId).sort()).toEqual(OPERATIONS.map((op) => op.operationId).sort());
  });

  test('when the client is generated, then its methods are exactly the client methods the table declares', () => {
    const methods = Object.getOwnPropertyNames(PitwallClient.prototype).filter((name) => name !== 'constructor');
    expect(methods.sort()).toEqual(OPERATIONS.flatMap((op) => op.client.map((m) => m.name)).sort());
  });

  test('when entity operations are named, then they use the wrappers names', () => {
    const ids = new Set(OPERATIONS.map((op) => op.operationId));
    for (const id of ['GetChampionshipById', 'GetAllChampionships', 'AddChampionship', 'UpdateChampionship', 'DeleteChampionship', 'SearchForTyres', 'GetAllSetupsForEventCar', 'GetAllAccounts']) expect(ids).toContain(id);
  });
});
