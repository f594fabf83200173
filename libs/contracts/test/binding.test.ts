import { CreateModel, ENTITY_TYPES, SearchBody, TimingLapUpdate, TimingRunUpdate, UpdateModel, buildOpenApiDocument, childTypesOf, collectionNamesOf, entityType, parseBody } from '../src';

describe('parseBody (case-insensitive binding, wire.md §1)', () => {
  test('when property names differ only in case, then they bind to the canonical names', () => {
    const r = parseBody(UpdateModel, { parameterUpdates: [{ name: 'Name', value: 'Monza' }], lastModifiedTimeMaxAllowedValue: null });
    expect(r).toEqual({ ok: true, value: { ParameterUpdates: [{ Name: 'Name', Value: 'Monza' }], LastModifiedTimeMaxAllowedValue: null } });
  });

  test('when a property is unknown, then it is named with "unknown property"', () => {
    const r = parseBody(UpdateModel, { ParameterUpdates: [], ParameterUpdate: [] });
    expect(r).toEqual({ ok: false, errors: { ParameterUpdate: ['unknown property'] } });
  });

  test('when a nested property is unknown or has the wrong type, then its full path is named', () => {
    const r = parseBody(CreateModel, { ParameterUpdates: [{ Name: 'Name', Value: 5, Extra: 1 }], CopyAll: 'yes' });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(Object.keys(r.errors).sort()).toEqual(['CopyAll', 'ParameterUpdates[0].Extra', 'ParameterUpdates[0].Value']);
    expect(r.errors['ParameterUpdates[0].Extra']).toEqual(['unknown property']);
  });

  test('when values have the wrong type or break a rule that gives no message of its own, then each is worded as a rule ("must be …")', () => {
    const id = '0b6f6b5e-6b51-4e6a-9d6a-0c7d8c1e2f3a';
    const ids = { accountId: id, championshipId: id, eventId: id, sessionId: id, carId: id };
    const properties = Array.from({ length: 1001 }, () => ({ name: 'LapTime', value: '1' }));
    expect(parseBody(TimingLapUpdate, { ...ids, runIndex: '3', stintLapNumber: 2.5, properties })).toEqual({
      ok: false,
      errors: { runIndex: ['must be a number, not a string'], stintLapNumber: ['must be a whole number'], properties: ['must have at most 1000 items'] },
    });
    expect(parseBody(TimingRunUpdate, { ...ids, carId: 7, runIndex: -1, pitInSessionTime: -0.5, shouldCreateNextRun: 'yes', properties: {} })).toEqual({
      ok: false,
      errors: {
        carId: ['must be a string, not a number'],
        runIndex: ['must be 0 or more'],
        pitInSessionTime: ['must be 0 or more: it is seconds since the session start'],
        shouldCreateNextRun: ['must be true or false, not a string'],
        properties: ['must be an array, not an object'],
      },
    });
    expect(parseBody(UpdateModel, [])).toEqual({ ok: false, errors: { '(body)': ['must be an object, not an array'] } });
    expect(parseBody(CreateModel, { Index: 1.5, CopyAll: 'no' })).toEqual({ ok: false, errors: { Index: ['must be a whole number'], CopyAll: ['must be true or false, not a string'] } });
    // A timing body's null field is an absent one: a required one sent as null is missing, not mistyped.
    expect(parseBody(TimingLapUpdate, { ...ids, carId: null, runIndex: null, stintLapNumber: null })).toEqual({
      ok: false,
      errors: { carId: ['is required'], runIndex: ['is required'], stintLapNumber: ['is required'] },
    });
  });

  test('when a property is given in two spellings, at the top or inside an array item, then each is named "must be given once", also when one is null', () => {
    const id = '0b6f6b5e-6b51-4e6a-9d6a-0c7d8c1e2f3a';
    const ids = { accountId: id, championshipId: id, eventId: id, sessionId: id, carId: id };
    // The two values differ, and either would bind alone: neither may silently win.
    expect(parseBody(TimingLapUpdate, { ...ids, runIndex: 0, stintLapNumber: 1, StintLapNumber: 2 })).toEqual({ ok: false, errors: { stintLapNumber: ['must be given once'] } });
    expect(parseBody(TimingRunUpdate, { ...ids, runIndex: 0, stintLapNumber: 1, StintLapNumber: null }).ok).toBe(false);
    expect(parseBody(UpdateModel, { ParameterUpdates: [{ Name: 'Name', name: 'Other', Value: 'a' }], parameterUpdates: [] })).toEqual({
      ok: false,
      errors: { ParameterUpdates: ['must be given once'], 'ParameterUpdates[0].Name': ['must be given once'] },
    });
    // Association keys and their items' ids, matched in any case, likewise.
    const other = '1b6f6b5e-6b51-4e6a-9d6a-0c7d8c1e2f3a';
    expect(parseBody(UpdateModel, { ChampionshipAssociationsToAdd: [{ ChampionshipId: id }], championshipAssociationsToAdd: [{ ChampionshipId: other }] })).toEqual({
      ok: false,
      errors: { championshipAssociationsToAdd: ['must be given once'] },
    });
    expect(parseBody(CreateModel, { EventAssociationsToRemove: [{ EventId: id, eventId: other }] })).toEqual({ ok: false, errors: { 'EventAssociationsToRemove[0].eventId': ['must be given once'] } });
    // Keys the schema does not declare keep their spelling: two of them are two unknown properties.
    expect(parseBody(UpdateModel, { ParameterUpdates: [], extra: 1, EXTRA: 2 })).toEqual({ ok: false, errors: { extra: ['unknown property'], EXTRA: ['unknown property'] } });
  });

  test('when a __proto__ key sits at the top or deep inside an array item, then each is named with its path as unknown', () => {
    const body = JSON.parse('{"__proto__": {"x": 1}, "ParameterUpdates": [{"Name": "Name", "Value": "a"}, {"Name": "N", "Value": "b", "__proto__": {"Value": 1}}]}');
    expect(parseBody(UpdateModel, body)).toEqual({ ok: false, errors: { ['__proto__']: ['unknown property'], 'ParameterUpdates[1].__proto__': ['unknown property'] } });
    // The same body without them binds (property names in any case).
    expect(parseBody(UpdateModel, JSON.parse('{"parameterupdates": [{"NAME": "Name", "value": "a"}]}'))).toEqual({ ok: true, value: { ParameterUpdates: [{ Name: 'Name', Value: 'a' }] } });
  });

  test('when a create or update body carries association keys, then they are accepted', () => {
    const id = '0b6f6b5e-6b51-4e6a-9d6a-0c7d8c1e2f3a';
    expect(parseBody(CreateModel, { ChampionshipAssociationsToAdd: [{ ChampionshipId: id }], ParameterUpdates: [] }).ok).toBe(true);
    expect(parseBody(UpdateModel, { EventAssociationsToRemove: [{ EventId: id }] }).ok).toBe(true);
  });

  test('when an association item is not ids (or is nested deep), then the path is named', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 5000; i++) deep = [deep];
    expect(parseBody(CreateModel, { ChampionshipAssociationsToAdd: [{ ChampionshipId: 'x' }] })).toEqual({ ok: false, errors: { 'ChampionshipAssociationsToAdd[0].ChampionshipId': ['is not a GUID'] } });
    const r = parseBody(UpdateModel, { CarAssociationsToAdd: [{ CarId: deep }] });
    expect(r.ok).toBe(false);
    expect(parseBody(UpdateModel, { CarAssociations: [] })).toEqual({ ok: false, errors: { CarAssociations: ['unknown property'] } });
  });

  test('when a search mode lacks the ids it needs, then each missing id is named', () => {
    expect(parseBody(SearchBody, { AssociatedModelSearchMode: 4, EventId: '0b6f6b5e-6b51-4e6a-9d6a-0c7d8c1e2f3a' })).toEqual({
      ok: false,
      errors: { CarId: ['is required for AssociatedModelSearchMode 4'] },
    });
    expect(parseBody(SearchBody, { associatedModelSearchMode: 7 }).ok).toBe(false);
    expect(parseBody(SearchBody, { associatedModelSearchMode: 0, accountId: '0b6f6b5e-6b51-4e6a-9d6a-0c7d8c1e2f3a' }).ok).toBe(true);
  });
});

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
    const doc = buildOpenApiDocument();
    expect(doc.openapi).toBe('3.1.0');
    for (const t of ENTITY_TYPES) {
      expect(doc.paths?.[`/${t.plural}`]).toHaveProperty('post');
      expect(doc.paths?.[`/${t.plural}/{id}`]).toHaveProperty('put');
      expect(Boolean(doc.paths?.[`/${t.plural}/Search`])).toBe(Boolean(t.features.search));
    }
    expect(doc.components?.schemas).toHaveProperty('UpdateModel');
  });

  test('when generated, then each operation lists the errors its body and its Idempotency-Key can get, and no others', () => {
    const responses = (path: string, method: string) => Object.keys((buildOpenApiDocument().paths?.[path] as Record<string, { responses: object }>)[method]?.responses ?? {});
    for (const path of ['/TimingIntegration/Runs', '/TimingIntegration/Laps', '/TimingIntegration/Sectors', '/TimingIntegration/SpeedTraps']) {
      expect(responses(path, 'put')).toEqual(['200', '400', '401', '403', '404', '413', '415', '422', '503', '504']);
    }
    // A read with a body: the body's errors, and no key reuse (reads record no command).
    expect(responses('/Tyres/Search', 'post')).toEqual(expect.arrayContaining(['413', '415']));
    expect(responses('/Tyres/Search', 'post')).not.toContain('422');
    // A delete has no body but records its command.
    expect(responses('/Tyres/{id}', 'delete')).toEqual(['204', '400', '401', '403', '404', '422', '503', '504']);
    expect(responses('/Tyres/{id}', 'get')).not.toEqual(expect.arrayContaining(['413']));
    // A status the operation gives for its own reason keeps that reason first, and the gateway's after it.
    const batch = (buildOpenApiDocument().paths?.['/RunSheets/{id}/DataFileAccess/{attachedFileGroupName}/channels'] as { post: { responses: Record<string, { description: string }> } }).post.responses;
    expect(batch['415']?.description).toBe('The file type does not support channel reads; or: The body is not JSON (Content-Type other than application/json)');
    expect(batch['422']?.description).toBe('The file could not be read or parsed');
    expect(buildOpenApiDocument().info.description).toContain('405');
    // The header that makes a write safe to retry is declared on the writes, and only there.
    const headerNames = (path: string, method: string) =>
      ((buildOpenApiDocument().paths?.[path] as Record<string, { parameters?: { in: string; name: string }[] }>)[method]?.parameters ?? []).filter((p) => p.in === 'header').map((p) => p.name);
    expect(headerNames('/TimingIntegration/Laps', 'put')).toEqual(['AccountId', 'Idempotency-Key']);
    expect(headerNames('/Tyres/{id}', 'delete')).toContain('Idempotency-Key');
    expect(headerNames('/Tyres/Search', 'post')).not.toContain('Idempotency-Key');
    expect(headerNames('/Tyres/{id}', 'get')).not.toContain('Idempotency-Key');
  });

  test('when generated, then each type has its own schema with typed parameters, reference objects and child collections', () => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the document is looked into as plain JSON
    const schemas = buildOpenApiDocument().components?.schemas as Record<string, { properties: Record<string, any> }>;
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

  test('when generated, then each data file read declares its answer: a JSON schema, and the binary channel body beside it', () => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the document is looked into as plain JSON
    const doc = buildOpenApiDocument() as any;
    const base = '/RunSheets/{id}/DataFileAccess/{attachedFileGroupName}';
    const ok = (path: string, method: string) => doc.paths[`${base}/${path}`][method].responses['200'].content;
    expect(ok('metadata', 'get')).toEqual({ 'application/json': { schema: { $ref: '#/components/schemas/DataFileMetadata' } } });
    for (const [path, method, schema] of [['channel', 'get', 'ChannelRecord'], ['channels', 'post', 'ChannelsRead']] as const) {
      expect(ok(path, method)).toEqual({
        'application/json': { schema: { $ref: `#/components/schemas/${schema}` } },
        'application/x-service-channels': { schema: { type: 'string', format: 'binary' } },
        'application/octet-stream': { schema: { type: 'string', format: 'binary' } },
      });
    }
    expect(ok('distance', 'get')['application/json'].schema).toEqual({ $ref: '#/components/schemas/LapDistance' });
    expect(ok('delta', 'get')['application/json'].schema).toEqual({ $ref: '#/components/schemas/LapDelta' });
    const schemas = doc.components.schemas;
    expect(Object.keys(schemas['DataFileMetadata'].properties)).toEqual(['entityId', 'entityType', 'attachedFileGroupName', 'fileProperties', 'startTime', 'fileTimeLength', 'lapCount', 'lapElapsedTimes', 'channels']);
    expect(schemas['ChannelRecord'].properties['samples']).toMatchObject({ type: 'array', items: { type: ['number', 'null'] } });
  });
});
