import { DistributedStack } from './support/distributed';
import { Api, EntityFactory, withEntityStack, suffix, updates, withNulls } from './support/entities';

let stack: DistributedStack;
let api: Api;
let factory: EntityFactory;
withEntityStack((f) => ({ stack, api, factory } = f));

/** A parameter name unique to the test (definitions are account-wide). */
const unique = (base: string, end = '') => `${base}${suffix().replace(/[^a-z0-9]/gi, '')}${end}`;

async function define(def: Record<string, string>) {
  const res = await api.create('ParameterDefinitions', {}, { ParameterUpdates: updates(def) });
  expect(res.status).toBe(201);
  return res.body;
}

describe('POST /ParameterDefinitions then ParameterUpdates on the defined type', () => {
  test('when Double, Integer, Boolean, DateTime, Enum and Reference parameters are defined, then values sent as strings come back typed', async () => {
    const n = {
      fuel: unique('Fuel'),
      laps: unique('Laps'),
      wet: unique('Wet'),
      stamp: unique('Stamp'),
      mode: unique('Mode'),
      tyre: unique('Tyre', 'Id'),
    };
    await define({ Name: n.fuel, EntityType: 'RunSheets', ParameterType: 'Double', Unit: 'l' });
    await define({ Name: n.laps, EntityType: 'runsheets', ParameterType: 'Integer' });
    await define({ Name: n.wet, EntityType: 'RunSheets', ParameterType: 'Boolean' });
    await define({ Name: n.stamp, EntityType: 'RunSheets', ParameterType: 'DateTime' });
    await define({ Name: n.mode, EntityType: 'RunSheets', ParameterType: 'Enum', EnumValues: 'Quali, Race ,Long run' });
    await define({ Name: n.tyre, EntityType: 'RunSheets', ParameterType: 'Reference', ReferencedEntityType: 'Tyres' });
    const tyre = await factory.build('Tyres', { allParameters: false });
    const runSheet = await factory.build('RunSheets', { allParameters: false });

    const res = await api.update('RunSheets', runSheet.entity.Id, {
      ParameterUpdates: updates({ [n.fuel]: '42.5', [n.laps]: '12', [n.wet]: 'true', [n.stamp]: '2026-04-12T14:03:07.250+02:00', [n.mode]: 'long RUN', [n.tyre]: tyre.entity.Id }),
    });
    expect(res.status).toBe(200);
    const got = await api.get('RunSheets', runSheet.entity.Id);
    expect(got.body.Parameters).toEqual({
      ...withNulls('RunSheets'),
      Name: runSheet.entity.Parameters['Name'],
      [n.fuel]: 42.5,
      [n.laps]: 12,
      [n.wet]: true,
      [n.stamp]: '2026-04-12T12:03:07.250Z',
      [n.mode]: 'Long run',
      [n.tyre]: tyre.entity.Id,
      [n.tyre.slice(0, -2)]: { Id: tyre.entity.Id, Parameters: {} },
    });

    const created = await api.create('RunSheets', runSheet.parentIds, { ParameterUpdates: updates({ Name: 'Run 2', [n.fuel.toLowerCase()]: '10' }) });
    expect(created.status).toBe(201);
    expect(created.body.Parameters).toEqual(withNulls('RunSheets', { Name: 'Run 2', [n.fuel]: 10, [n.laps]: null, [n.wet]: null, [n.stamp]: null, [n.mode]: null, [n.tyre]: null, [n.tyre.slice(0, -2)]: null }));
  });

  test('when custom parameters are named as members every object inherits (constructor, toString), then they read like any other', async () => {
    await define({ Name: 'constructor', EntityType: 'Drivers', ParameterType: 'Text' });
    await define({ Name: 'toString', EntityType: 'Drivers', ParameterType: 'Double' });
    const driver = await factory.build('Drivers', { allParameters: false });
    const unset = await api.get('Drivers', driver.entity.Id);
    expect(unset.body.Parameters).toMatchObject({ constructor: null, toString: null });
    expect((await api.update('Drivers', driver.entity.Id, { ParameterUpdates: updates({ constructor: 'c1', tostring: '2.5' }) })).status).toBe(200);
    expect((await api.get('Drivers', driver.entity.Id)).body.Parameters).toMatchObject({ constructor: 'c1', toString: 2.5 });
    const projected = await api.get('Drivers', driver.entity.Id, 'constructor,valueOf,Name');
    expect(projected.status).toBe(400);
    const both = await api.get('Drivers', driver.entity.Id, 'constructor,toString');
    expect(both.body.Parameters).toEqual({ constructor: 'c1', toString: 2.5 });
  });

  test('when a name is not defined for the type, then it is a 400 naming it and nothing is written', async () => {
    const name = unique('Fuel');
    await define({ Name: name, EntityType: 'Sessions', ParameterType: 'Double' });
    const runSheet = await factory.build('RunSheets', { allParameters: false });
    const res = await api.update('RunSheets', runSheet.entity.Id, { ParameterUpdates: updates({ Name: 'changed', [name]: '1' }) });
    expect(res.status).toBe(400);
    expect(res.body.errors['ParameterUpdates[1].Name'][0]).toContain(name);
    expect((await api.get('RunSheets', runSheet.entity.Id)).body.Parameters.Name).toBe(runSheet.entity.Parameters['Name']);
  });

  test.each([
    ['Double', 'lots', {}],
    ['Integer', '1.5', {}],
    ['Boolean', 'maybe', {}],
    ['DateTime', 'next tuesday', {}],
    ['Enum', 'C', { EnumValues: 'A,B' }],
    ['Reference', 'not-a-guid', { ReferencedEntityType: 'Tyres' }],
  ])('when a %s value does not convert, then it is a 400 naming the parameter', async (type, value, extra) => {
    const name = unique(`Custom${type}`, type === 'Reference' ? 'Id' : '');
    await define({ Name: name, EntityType: 'Laps', ParameterType: type, ...extra });
    const lap = await factory.build('Laps', { allParameters: false });
    const res = await api.update('Laps', lap.entity.Id, { ParameterUpdates: updates({ [name]: value }) });
    expect(res.status).toBe(400);
    expect(res.body.errors['ParameterUpdates[0].Value'][0]).toContain(name);
  });

  test('when a custom Reference names a missing entity, then it is a 400 naming the parameter', async () => {
    const name = unique('Tyre', 'Id');
    await define({ Name: name, EntityType: 'Laps', ParameterType: 'Reference', ReferencedEntityType: 'Tyres' });
    const lap = await factory.build('Laps', { allParameters: false });
    const res = await api.update('Laps', lap.entity.Id, { ParameterUpdates: updates({ [name]: lap.entity.Id }) });
    expect(res.status).toBe(400);
    expect(res.body.errors['ParameterUpdates[0].Value'][0]).toContain(name);
  });

  test('when another account defines a parameter, then it is unknown in this account', async () => {
    const other = new Api(stack.baseUrl, await stack.member('admin'));
    const name = unique('Theirs');
    expect((await other.create('ParameterDefinitions', {}, { ParameterUpdates: updates({ Name: name, EntityType: 'Cars', ParameterType: 'Text' }) })).status).toBe(201);
    const res = await api.create('Cars', {}, { ParameterUpdates: updates({ Name: 'Mine', [name]: 'x' }) });
    expect(res.status).toBe(400);
    expect(res.body.errors['ParameterUpdates[1].Name'][0]).toContain(name);
  });
});

describe('POST /ParameterDefinitions validation', () => {
  test.each([
    ['an unknown EntityType', 'EntityType', { EntityType: 'Spaceships', ParameterType: 'Double' }],
    ['a clash with a built-in parameter', 'Name', { Name: 'LapTime', EntityType: 'Laps', ParameterType: 'Double' }],
    ['a clash with a built-in parameter in another case', 'Name', { Name: 'laptime', EntityType: 'Laps', ParameterType: 'Double' }],
    ['a clash with a built-in reference\'s nested object', 'Name', { Name: 'Driver', EntityType: 'RunSheets', ParameterType: 'Text' }],
    ['a Reference whose nested object clashes with a built-in', 'Name', { Name: 'NameId', EntityType: 'RunSheets', ParameterType: 'Reference', ReferencedEntityType: 'Tyres' }],
    ['an Enum without values', 'EnumValues', { EntityType: 'Laps', ParameterType: 'Enum' }],
    ['an Enum with only blank values', 'EnumValues', { EntityType: 'Laps', ParameterType: 'Enum', EnumValues: ' , ,' }],
    ['a Reference without a referenced type', 'ReferencedEntityType', { Name: unique('Ref', 'Id'), EntityType: 'Laps', ParameterType: 'Reference' }],
    ['a Reference whose name does not end with Id', 'Name', { Name: unique('Ref'), EntityType: 'Laps', ParameterType: 'Reference', ReferencedEntityType: 'Tyres' }],
    ['an unknown ParameterType', 'ParameterUpdates[2].Value', { EntityType: 'Laps', ParameterType: 'Colour' }],
    ['a name with a space', 'Name', { Name: 'Fuel added', EntityType: 'Laps', ParameterType: 'Double' }],
    ['the reserved name Id', 'Name', { Name: 'Id', EntityType: 'Laps', ParameterType: 'Text' }],
    ['the reserved name Id in another case', 'Name', { Name: 'ID', EntityType: 'Laps', ParameterType: 'Double' }],
    ['a Reference whose nested object would be Id', 'Name', { Name: 'IdId', EntityType: 'Laps', ParameterType: 'Reference', ReferencedEntityType: 'Cars' }],
  ])('when it has %s, then it is a 400 naming %s and nothing is defined', async (_what, field, def) => {
    const before = (await api.list('ParameterDefinitions')).body.length;
    const res = await api.create('ParameterDefinitions', {}, { ParameterUpdates: updates({ Name: unique('Param'), ...def }) });
    expect(res.status).toBe(400);
    expect(res.body.errors).toHaveProperty([field]);
    expect((await api.list('ParameterDefinitions')).body).toHaveLength(before);
  });

  test('when the same name is defined twice for a type, then the second is a 400 naming Name and the first stays', async () => {
    const name = unique('Twice');
    await define({ Name: name, EntityType: 'Laps', ParameterType: 'Double' });
    const again = await api.create('ParameterDefinitions', {}, { ParameterUpdates: updates({ Name: name, EntityType: 'Laps', ParameterType: 'Text' }) });
    expect(again.status).toBe(400);
    expect(again.body.errors).toHaveProperty('Name');
    const named = (await api.list('ParameterDefinitions')).body.filter((d: { Parameters: { Name: string } }) => d.Parameters.Name === name);
    expect(named).toHaveLength(1);
    expect(named[0].Parameters.ParameterType).toBe('Double');
  });

  test.each<[string, Record<string, string>[], string]>([
    ['the Reference first, then a parameter named as its object', [{ Name: 'BarId', ParameterType: 'Reference', ReferencedEntityType: 'Cars' }, { Name: 'Bar', ParameterType: 'Text' }], 'BarId (whose object is Bar)'],
    ['a parameter first, then a Reference whose object it would be', [{ Name: 'Bar', ParameterType: 'Text' }, { Name: 'BarId', ParameterType: 'Reference', ReferencedEntityType: 'Cars' }], 'Bar'],
    ['two References with one object in other cases', [{ Name: 'BarId', ParameterType: 'Reference', ReferencedEntityType: 'Cars' }, { Name: 'barId', ParameterType: 'Reference', ReferencedEntityType: 'Tyres' }], 'BarId'],
  ])('when two definitions would share one key of Parameters (%s), then the second is a 400 naming the first', async (_what, [first, second], named) => {
    const type = 'Laps';
    const prefix = unique('P');
    const rename = (d: Record<string, string>) => ({ ...d, Name: d['Name']!.replace(/^bar/i, (m) => (m === 'Bar' ? prefix : prefix.toLowerCase())), EntityType: type });
    await define(rename(first!));
    const res = await api.create('ParameterDefinitions', {}, { ParameterUpdates: updates(rename(second!)) });
    expect(res.status).toBe(400);
    expect(res.body.errors.Name).toEqual([`${type} already has a parameter ${named.split('Bar').join(prefix)}`]);
  });

  test('when the same name is defined by concurrent requests, then exactly one is 201', async () => {
    const name = unique('Raced');
    const answers = await Promise.all([0, 1, 2].map(() => api.create('ParameterDefinitions', {}, { ParameterUpdates: updates({ Name: name, EntityType: 'Laps', ParameterType: 'Double' }) })));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 400, 400]);
  });

  test('when a definition is updated to something invalid, then it is a 400 and the definition is unchanged', async () => {
    const def = await define({ Name: unique('Mode'), EntityType: 'Laps', ParameterType: 'Enum', EnumValues: 'A,B' });
    const res = await api.update('ParameterDefinitions', def.Id, { ParameterUpdates: updates({ EnumValues: null }) });
    expect(res.status).toBe(400);
    expect((await api.get('ParameterDefinitions', def.Id)).body.Parameters.EnumValues).toBe('A,B');
  });
});
