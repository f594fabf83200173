import { CreateModel, SearchBody, TimingLapUpdate, TriggerSimulationBody, TimingRunUpdate, UpdateModel } from '@pitwall/contracts';
import { nameGivenTwice, parseBody } from '../../src/entry-points/http/request-binding';

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
      errors: { runIndex: ['must be a number, not a string'], stintLapNumber: ['must be a whole number'], properties: ['must have at most 1000 items (MAX_TIMING_PROPERTIES)'] },
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
    // A session time is bounded above too: a week of seconds (a week and a second is no session's time).
    expect(parseBody(TimingRunUpdate, { ...ids, runIndex: 0, pitInSessionTime: 1e308, pitOutSessionTime: 604_801 })).toEqual({
      ok: false,
      errors: { pitInSessionTime: ['must be at most 604800 (a week): it is seconds since the session start'], pitOutSessionTime: ['must be at most 604800 (a week): it is seconds since the session start'] },
    });
    expect(parseBody(TimingRunUpdate, { ...ids, runIndex: 0, pitInSessionTime: 86_399.999, pitOutSessionTime: 604_800 })).toMatchObject({ ok: true });
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
    expect(parseBody(CreateModel, { ChampionshipAssociationsToAdd: [{ ChampionshipId: id, ParameterUpdates: [{ Name: 'Class', Value: 'GT3 Pro-Am ✓' }] }] }).ok).toBe(true);
  });

  test('when an association\'s parameter holds what the database cannot store (NUL, an unpaired surrogate), then it is a 400 naming it, not a 500 from PostgreSQL', () => {
    const id = '0b6f6b5e-6b51-4e6a-9d6a-0c7d8c1e2f3a';
    expect(parseBody(CreateModel, { ChampionshipAssociationsToAdd: [{ ChampionshipId: id, ParameterUpdates: [{ Name: 'x', Value: 'a\u0000' }] }] })).toEqual({
      ok: false,
      errors: { 'ChampionshipAssociationsToAdd[0].ParameterUpdates[0].Value': ['may not contain NUL characters or unpaired surrogates'] },
    });
    expect(parseBody(UpdateModel, { EventAssociationsToAdd: [{ EventId: id, ParameterUpdates: [{ Name: '\ud800', Value: 'b' }] }] })).toEqual({
      ok: false,
      errors: { 'EventAssociationsToAdd[0].ParameterUpdates[0].Name': ['may not contain NUL characters or unpaired surrogates'] },
    });
  });

  test('when a list is null, as a .NET model serialises an unset one, then it is none: ParameterUpdates, an association key, an item\'s ParameterUpdates', () => {
    const id = '0b6f6b5e-6b51-4e6a-9d6a-0c7d8c1e2f3a';
    expect(parseBody(CreateModel, { CopyFromId: null, CopyFromLast: false, CopyAll: false, Index: null, ParameterUpdates: null, ChampionshipAssociationsToAdd: null })).toMatchObject({ ok: true });
    expect(parseBody(UpdateModel, { LastModifiedTimeMaxAllowedValue: null, ParameterUpdates: null, CollectionUpdateModels: { Laps: [{ Id: null, ParameterUpdates: null }] }, EventAssociationsToRemove: null })).toMatchObject({ ok: true });
    expect(parseBody(CreateModel, { ChampionshipAssociationsToAdd: [{ ChampionshipId: id, ParameterUpdates: null }] })).toMatchObject({ ok: true });
    // Not a list either: still refused.
    expect(parseBody(CreateModel, { ChampionshipAssociationsToAdd: {} })).toMatchObject({ ok: false });
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
    // A mode that is no number of the table (a string, a name every object has) is refused alone, never looked up.
    for (const mode of ['constructor', 'toString', '__proto__', '2', 7]) {
      expect(parseBody(SearchBody, { AssociatedModelSearchMode: mode, EventId: '0b6f6b5e-6b51-4e6a-9d6a-0c7d8c1e2f3a' })).toEqual({ ok: false, errors: { AssociatedModelSearchMode: ['must be 0, 1, 2, 3 or 4 (a number)'] } });
    }
    // Every bad field in one answer: an id of the wrong shape beside the one missing.
    expect(parseBody(SearchBody, { AssociatedModelSearchMode: 4, EventId: 'x' })).toEqual({
      ok: false,
      errors: { EventId: ['is not a GUID'], CarId: ['is required for AssociatedModelSearchMode 4'] },
    });
  });

  test('when simulation credentials are partial and one of them is of the wrong type, then every field is named in one answer', () => {
    const id = '0b6f6b5e-6b51-4e6a-9d6a-0c7d8c1e2f3a';
    const r = parseBody(TriggerSimulationBody, { externalProfileId: id, setupIds: [id], credentials: { clientId: 5, username: 'me' } });
    expect(r.ok).toBe(false);
    expect(Object.keys((r as { errors: object }).errors).sort()).toEqual(['credentials.clientId', 'credentials.clientSecret', 'credentials.password']);
    // A field of the wrong type (null too) is named for its type alone, not also as missing.
    const typed = parseBody(TriggerSimulationBody, { externalProfileId: id, setupIds: [id], credentials: { clientId: null, clientSecret: 0, username: 'me', password: '' } });
    expect(typed).toEqual({
      ok: false,
      errors: {
        'credentials.clientId': ['must be a string, not null'],
        'credentials.clientSecret': ['must be a string, not a number'],
        'credentials.password': ['is required: credentials need clientId, clientSecret, username and password together'],
      },
    });
    expect(parseBody(SearchBody, { associatedModelSearchMode: 0, accountId: '0b6f6b5e-6b51-4e6a-9d6a-0c7d8c1e2f3a' }).ok).toBe(true);
  });
});

describe('nameGivenTwice (a JSON object that gives one name twice)', () => {
  const twice = (json: string) => nameGivenTwice(Buffer.from(json));
  test.each([
    ['{"a":1,"b":2,"a":3}', 'a'],
    ['{"a":1,"b":2,"c":3,"d":4,"c":5}', 'c'],
    ['{"x":{"a":1},"y":[{"a":1,"b":{"c":[1,{"d":1,"d":2}]}}]}', 'd'],
    ['{"Name":"N","Value":"1","\\u0056alue":"2"}', 'Value'],
    ['{"é":1,"\\u00e9":2}', 'é'],
    ['{"a":1,"a"', 'a'],
  ])('when %s, then it names %s', (json, name) => {
    expect(twice(json)).toBe(name);
  });
  test.each([
    ['{"a":1,"b":{"a":2},"c":[{"a":3},{"a":4}]}'],
    ['[{"a":1},{"a":1}]'],
    ['{"a":"\\"a\\":1,\\"a\\"","b":"a"}'],
    ['{"a":{"a":{"a":{"a":{}}}}}'],
  ])('when %s, then none (each name once in its object)', (json) => {
    expect(twice(json)).toBeUndefined();
  });
});
