import { ENTITY_TYPES, buildOpenApiDocument, childTypesOf, collectionNamesOf, entityType } from '../src';

// One document for every test (about a second to generate; each test only reads it).
let document: ReturnType<typeof buildOpenApiDocument> | undefined;
const generated = () => (document ??= buildOpenApiDocument());

describe('entity registry', () => {
  test('when a type names a parent or reference, then that type exists', () => {
    for (const t of ENTITY_TYPES) {
      for (const p of t.parents) expect(entityType(p.type)?.plural).toBe(p.type);
      for (const p of t.parameters.filter((x) => x.type === 'Reference')) expect(entityType(p.references ?? '')).toBeDefined();
    }
  });

  test('when an Event is described, then it holds Sessions, Cars (event cars) and AttachedFiles', () => {
    const event = entityType('events');
    expect(event && collectionNamesOf(event)).toEqual(expect.arrayContaining(['Sessions', 'Cars', 'AttachedFiles']));
    expect(event && childTypesOf(event).map((t) => t.plural)).toContain('EventCars');
  });
});

describe('OpenAPI document', () => {
  test('when generated, then every registry type has its standard paths and search where enabled', () => {
    const doc = generated();
    expect(doc.openapi).toBe('3.1.0');
    for (const t of ENTITY_TYPES) {
      expect(doc.paths?.[`/${t.plural}`]).toHaveProperty('post');
      expect(doc.paths?.[`/${t.plural}/{id}`]).toHaveProperty('put');
      expect(Boolean(doc.paths?.[`/${t.plural}/Search`])).toBe(Boolean(t.features.search));
    }
    expect(doc.components?.schemas).toHaveProperty('UpdateModel');
  });

  test('when generated, then each operation lists the errors its body and its Idempotency-Key can get, and no others', () => {
    const responses = (path: string, method: string) => Object.keys((generated().paths?.[path] as Record<string, { responses: object }>)[method]?.responses ?? {});
    for (const path of ['/TimingIntegration/Runs', '/TimingIntegration/Laps', '/TimingIntegration/Sectors', '/TimingIntegration/SpeedTraps']) {
      expect(responses(path, 'put')).toEqual(['200', '400', '401', '403', '404', '413', '415', '422', '431', '503', '504']);
    }
    // A read with a body: the body's errors, and no key reuse (reads record no command).
    expect(responses('/Tyres/Search', 'post')).toEqual(expect.arrayContaining(['413', '415']));
    expect(responses('/Tyres/Search', 'post')).not.toContain('422');
    // A delete has no body but records its command, and is refused past ENTITY_DELETE_MAX_ENTITIES (413).
    expect(responses('/Tyres/{id}', 'delete')).toEqual(['204', '400', '401', '403', '404', '413', '422', '431', '503', '504']);
    expect(responses('/Tyres/{id}', 'get')).not.toEqual(expect.arrayContaining(['413']));
    // A status the operation gives for its own reason keeps that reason first, and the gateway's after it.
    const batch = (generated().paths?.['/RunSheets/{id}/DataFileAccess/{attachedFileGroupName}/channels'] as { post: { responses: Record<string, { description: string }> } }).post.responses;
    expect(batch['415']?.description).toBe('The file type does not support channel reads; or: The body is not JSON (Content-Type other than application/json)');
    expect(batch['422']?.description).toBe('The file could not be read or parsed');
    expect(generated().info.description).toContain('405');
    // The header that makes a write safe to retry is declared on the writes, and only there.
    const headerNames = (path: string, method: string) =>
      ((generated().paths?.[path] as Record<string, { parameters?: { in: string; name: string }[] }>)[method]?.parameters ?? []).filter((p) => p.in === 'header').map((p) => p.name);
    expect(headerNames('/TimingIntegration/Laps', 'put')).toEqual(['AccountId', 'Idempotency-Key']);
    expect(headerNames('/Tyres/{id}', 'delete')).toContain('Idempotency-Key');
    expect(headerNames('/Tyres/Search', 'post')).not.toContain('Idempotency-Key');
    expect(headerNames('/Tyres/{id}', 'get')).not.toContain('Idempotency-Key');
  });

  test('when generated, then every operation lists the 431 any request can get, and the callback registration its 409 at MAX_SIMULATION_CALLBACKS', () => {
    const paths = generated().paths as Record<string, Record<string, { operationId: string; responses: Record<string, { description: string }> }>>;
    const operations = Object.values(paths).flatMap((item) => Object.values(item));
    expect(operations.length).toBeGreaterThan(100);
    for (const op of operations) expect([op.operationId, op.responses['431']?.description]).toEqual([op.operationId, expect.stringContaining('192 KiB')]);
    expect(paths['/ExternalSimulations/Status']?.['get']?.responses['431']?.description).toMatch(/MAX_HEADER_BYTES/);
    const register = paths['/ExternalSimulations/Callbacks']?.['post']?.responses ?? {};
    expect(Object.keys(register)).toEqual(expect.arrayContaining(['201', '409', '431']));
    expect(register['409']?.description).toMatch(/MAX_SIMULATION_CALLBACKS/);
  });

  test('when generated, then each type has its own schema with typed parameters, reference objects and child collections', () => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the document is looked into as plain JSON
    const schemas = generated().components?.schemas as Record<string, { properties: Record<string, any> }>;
    const lap = schemas['Lap']?.properties;
    expect(lap?.['Parameters'].properties['LapTime']).toMatchObject({ type: ['number', 'null'], description: 'Double, unit s' });
    expect(lap?.['Parameters'].properties['StintLapNumber']).toMatchObject({ type: ['integer', 'null'] });
    expect(lap?.['LapSectors']).toEqual({ type: 'array', items: { $ref: '#/components/schemas/LapSector' } });
    const runSheet = schemas['RunSheet']?.properties;
    expect(runSheet?.['Parameters'].properties['DriverId']).toMatchObject({ format: 'uuid' });
    expect(runSheet?.['Parameters'].properties['Driver']).toEqual({ $ref: '#/components/schemas/EntityReference' });
    expect(runSheet?.['Parameters'].properties['PitInTime']).toMatchObject({ format: 'date-time' });
    expect(runSheet?.['Laps']).toEqual({ type: 'array', items: { $ref: '#/components/schemas/Lap' } });
    expect(runSheet?.['AttachedFiles']).toEqual({ type: 'array', items: { $ref: '#/components/schemas/AttachedFile' } });
    const event = schemas['Event']?.properties;
    expect(Object.keys(event ?? {})).toEqual(['Id', 'Parameters', 'Sessions', 'Cars', 'AttachedFiles']);
  });

  test('when generated, then each data file read declares its answer: a JSON schema, and the binary channel body, the Arrow stream and the Arrow file beside it', () => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the document is looked into as plain JSON
    const doc = generated() as any;
    const base = '/RunSheets/{id}/DataFileAccess/{attachedFileGroupName}';
    const ok = (path: string, method: string) => doc.paths[`${base}/${path}`][method].responses['200'].content;
    expect(ok('metadata', 'get')).toEqual({ 'application/json': { schema: { $ref: '#/components/schemas/DataFileMetadata' } } });
    for (const [path, method, schema] of [['channel', 'get', 'ReadRecord'], ['channels', 'post', 'ChannelsRead']] as const) {
      expect(ok(path, method)).toEqual({
        'application/json': { schema: { $ref: `#/components/schemas/${schema}` } },
        'application/x-service-channels': { schema: { type: 'string', format: 'binary' } },
        'application/octet-stream': { schema: { type: 'string', format: 'binary' } },
        'application/vnd.apache.arrow.stream': { schema: { type: 'string', format: 'binary' } },
        'application/vnd.apache.arrow.file': { schema: { type: 'string', format: 'binary' } },
      });
      expect(doc.paths[`${base}/${path}`][method].responses['406'].description).toMatch(/Arrow/);
    }
    expect(doc.paths[`${base}/metadata`].get.responses['406']).toBeUndefined();
    expect(ok('distance', 'get')['application/json'].schema).toEqual({ $ref: '#/components/schemas/LapDistance' });
    expect(ok('delta', 'get')['application/json'].schema).toEqual({ $ref: '#/components/schemas/LapDelta' });
    const schemas = doc.components.schemas;
    expect(Object.keys(schemas['DataFileMetadata'].properties)).toEqual(['entityId', 'entityType', 'attachedFileGroupName', 'fileProperties', 'startTime', 'fileTimeLength', 'lapCount', 'lapElapsedTimes', 'channels']);
    expect(schemas['ChannelRecord'].properties['samples']).toMatchObject({ type: 'array', items: { type: ['number', 'null'] } });
    // A record is numbers, or the events of a text or byte channel.
    expect(schemas['ReadRecord'].anyOf ?? schemas['ReadRecord'].oneOf).toEqual([{ $ref: '#/components/schemas/ChannelRecord' }, { $ref: '#/components/schemas/EventRecord' }]);
    expect(schemas['EventRecord'].properties['values']).toMatchObject({ type: 'array', items: { type: ['string', 'null'] } });
    expect(schemas['DataFileMetadata'].properties['channels'].items.properties['kind']).toMatchObject({ enum: ['text', 'bytes'] });
  });
});
