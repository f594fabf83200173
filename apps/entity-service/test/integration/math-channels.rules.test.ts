import { randomUUID } from 'node:crypto';
import { AppError } from '@pitwall/service-kit';
import type { CallerContext } from '@pitwall/contracts';
import { EntityStore } from '../../src/domain/entity-store';
import { DEFAULT_RULE_LIMITS } from '../../src/domain/type-rules';
import { entityStoreOnTestDatabase } from '../support/entity-store-database';

// MathChannels: an account-level definition like the others (CRUD, events, editors write, readers read), checked on write.
const t = entityStoreOnTestDatabase();

const as = (role: CallerContext['role'], accountId = randomUUID()): CallerContext => ({ accountId, userId: randomUUID(), role });
const json = (reply: { json: Buffer }) => JSON.parse(reply.json.toString('utf8'));
const body = (parameters: Record<string, string>) => ({ ParameterUpdates: Object.entries(parameters).map(([Name, Value]) => ({ Name, Value })) });
const create = async (caller: CallerContext, parameters: Record<string, string>) => json(await t.store.create(caller, 'MathChannels', {}, body(parameters)));
const refusal = (write: Promise<unknown>) => write.then(() => new Error('written'), (e: unknown) => e);

describe('MathChannels', () => {
  test('when an editor creates one, then it is stored, read back, listed, and its event is published', async () => {
    const editor = as('editor');
    const created = await create(editor, { Name: 'Power', Expression: '"Engine Torque" * rpm * 2 * pi / 60', Unit: 'W', Rate: '100' });
    const reader: CallerContext = { ...editor, userId: randomUUID(), role: 'reader' };
    expect(json(await t.store.get(reader, 'MathChannels', created.Id)).Parameters).toMatchObject({ Name: 'Power', Expression: '"Engine Torque" * rpm * 2 * pi / 60', Unit: 'W', Rate: 100 });
    expect(json(await t.store.list(reader, 'MathChannels', {}, ['Name']))).toEqual([{ Id: created.Id, Parameters: { Name: 'Power' } }]);
    await t.outbox.settled();
    expect(t.published.filter((p) => p.event.accountId === editor.accountId).map((p) => p.routingKey)).toEqual(['entity.MathChannel.created']);
  });

  test('when a reader writes one, then it is a 403', async () => {
    expect(await refusal(create(as('reader'), { Name: 'x', Expression: '1' }))).toMatchObject({ status: 403 });
  });

  test.each([
    ['"Speed" * ', 'at character 10: expected expression after *'],
    ['smooth(Speed)', 'at character 0: smooth takes 2 arguments (x, seconds), not 1'],
    ['Speed + nope(1)', 'at character 8: unknown function nope'],
    ['interp(Volts, 0.5, 0)', 'at character 0: interp takes x and at least two breakpoint pairs (x, x1, y1, x2, y2, ...), not 3 arguments'],
    ['interp(Volts, 0.5, 0, 4.5, 100, 5)', "at character 32: interp's breakpoints come in pairs (x1, y1, x2, y2, ...): x3 has no y"],
    ['interp(Volts, 4.5, 100, 0.5, 0)', "at character 24: interp's x breakpoints must be strictly increasing: x2 (0.5) is not greater than x1 (4.5)"],
    ['lookup(Gear, 1, Ratio, 2, 2.05)', "at character 16: lookup's y1 must be a number written as digits, with a sign or not (not a name or an expression)"],
    ['delay(Speed, -1)', "at character 13: delay's seconds must be positive, not -1: delay gives x as it was that long before, never ahead (to line x up with a channel that lags it, delay that channel by 1 s instead)"],
    ['2 * lapNumber(1)', 'at character 4: lapNumber takes no arguments, not 1'],
  ])('when the expression %j does not parse, then it is a 400 naming the character and the reason', async (expression, message) => {
    const error = await refusal(create(as('editor'), { Name: 'bad', Expression: expression }));
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ status: 400, errors: { Expression: [message] } });
  });

  test('when a table has more breakpoint pairs than the 200 it may, then it is a 400 naming the first pair past them', async () => {
    const pairs = (n: number) => Array.from({ length: n }, (_, k) => `${k}, ${k}`).join(', ');
    await create(as('editor'), { Name: 'widest', Expression: `interp(x, ${pairs(200)})` });
    const error = await refusal(create(as('editor'), { Name: 'too wide', Expression: `interp(x, ${pairs(201)})` }));
    expect(error).toMatchObject({ status: 400, errors: { Expression: ['at character 1790: interp takes at most 200 breakpoint pairs, not 201'] } });
  });

  test('when a definition would read itself through others, then it is a 400 naming the cycle, on create and on update', async () => {
    const editor = as('editor');
    await create(editor, { Name: 'a', Expression: 'b + 1' });
    const b = await create(editor, { Name: 'b', Expression: 'c * 2' });
    expect(await refusal(create(editor, { Name: 'c', Expression: 'a - "Logged"' }))).toMatchObject({ status: 400, errors: { Expression: ['math channels may not read one another in a cycle: c → a → b → c'] } });
    expect(await refusal(create(editor, { Name: 'self', Expression: 'self' }))).toMatchObject({ errors: { Expression: ['math channels may not read one another in a cycle: self → self'] } });
    const c = await create(editor, { Name: 'c', Expression: '"Logged" / 2' });
    const update = { ParameterUpdates: [{ Name: 'Expression', Value: 'a' }] };
    expect(await refusal(t.store.update(editor, 'MathChannels', b.Id, update))).toMatchObject({ status: 400, errors: { Expression: ['math channels may not read one another in a cycle: b → a → b'] } });
    // A rename alone that closes one (a reads b; c renamed to b reads a): the Name is what closed it.
    await t.store.update(editor, 'MathChannels', b.Id, { ParameterUpdates: [{ Name: 'Name', Value: 'b old' }] });
    await t.store.update(editor, 'MathChannels', c.Id, { ParameterUpdates: [{ Name: 'Expression', Value: 'a' }] });
    expect(await refusal(t.store.update(editor, 'MathChannels', c.Id, { ParameterUpdates: [{ Name: 'Name', Value: 'b' }] }))).toMatchObject({ status: 400, errors: { Name: ['math channels may not read one another in a cycle: b → a → b'] } });
  });

  test('when the unit is longer than 200 characters or holds a control character, then it is a 400 naming Unit (every read would refuse it)', async () => {
    const editor = as('editor');
    expect(await refusal(create(editor, { Name: 'long unit', Expression: '1', Unit: 'm'.repeat(201) }))).toMatchObject({ status: 400, errors: { Unit: ['must be at most 200 characters, without control characters'] } });
    expect(await refusal(create(editor, { Name: 'tab unit', Expression: '1', Unit: 'm\ts' }))).toMatchObject({ status: 400, errors: { Unit: ['must be at most 200 characters, without control characters'] } });
    await create(editor, { Name: 'fine unit', Expression: '1', Unit: 'm/s² (°C)'.padEnd(200, '.') });
  });

  test('when a name is taken (any case), empty, or the Rate is outside 0.001 to 1,000,000 Hz, then it is a 400 naming the field', async () => {
    const editor = as('editor');
    await create(editor, { Name: 'Power', Expression: '1' });
    expect(await refusal(create(editor, { Name: 'POWER', Expression: '2' }))).toMatchObject({ status: 400, errors: { Name: ['another math channel is named Power'] } });
    expect(await refusal(create(editor, { Name: 'ok', Expression: ' ' }))).toMatchObject({ status: 400, errors: { Expression: ['is required'] } });
    for (const rate of ['-5', '0', '5e-324', '0.0009', '1000001']) {
      expect(await refusal(create(editor, { Name: 'ok', Expression: '1', Rate: rate }))).toMatchObject({ status: 400, errors: { Rate: ['must be a number of Hz from 0.001 to 1,000,000, or empty for the fastest input'] } });
    }
    for (const rate of ['0.001', '1000000']) expect((await create(editor, { Name: `at ${rate} Hz`, Expression: '1', Rate: rate })).Id).toBeDefined();
  });

  test('when a name begins or ends with a space or holds a format character (U+202E, a zero-width joiner) or a line separator (U+2028, U+2029), then it is a 400 naming Name: names look as they are, as a viewer layout\'s do', async () => {
    const editor = as('editor');
    await create(editor, { Name: 'Trail', Expression: '1' });
    for (const name of ['Trail ', ' Trail', 'Trail\u00a0']) expect(await refusal(create(editor, { Name: name, Expression: '2' }))).toMatchObject({ status: 400, errors: { Name: ['must not begin or end with a space'] } });
    for (const name of ['Speed\u202Ehpm', 'Spe\u200Ded', 'a"b', 'tab\tname', 'Two\u2028lines', 'Two\u2029paragraphs']) {
      expect(await refusal(create(editor, { Name: name, Expression: '2' }))).toMatchObject({ status: 400, errors: { Name: ['must be at most 200 characters, without quotes, backslashes, control, format or line separator characters'] } });
    }
    expect((await create(editor, { Name: 'Trail brake %', Expression: '2' })).Id).toEqual(expect.any(String));
  });

  test('when one was stored with a name written before the name rules ("Trail "), then its expression can still be changed; a new name is checked', async () => {
    const editor = as('editor');
    const kept = await create(editor, { Name: 'Trail', Expression: '1' });
    await t.pool.query(`UPDATE entity.entities SET parameters = jsonb_set(parameters, '{Name}', '"Trail "') WHERE id = $1`, [kept.Id]);
    await t.store.update(editor, 'MathChannels', kept.Id, body({ Expression: '2' }));
    expect(json(await t.store.get(editor, 'MathChannels', kept.Id)).Parameters).toMatchObject({ Name: 'Trail ', Expression: '2' });
    expect(await refusal(t.store.update(editor, 'MathChannels', kept.Id, body({ Name: ' Trail' })))).toMatchObject({ status: 400, errors: { Name: ['must not begin or end with a space'] } });
    await t.store.update(editor, 'MathChannels', kept.Id, body({ Name: 'Trail' }));
    expect(json(await t.store.get(editor, 'MathChannels', kept.Id)).Parameters).toMatchObject({ Name: 'Trail', Expression: '2' });
  });

  test('when DecimalPlaces is given from 0 to 6, then it is stored and read back as a number; emptied, it is null (full precision)', async () => {
    const editor = as('editor');
    const two = await create(editor, { Name: 'Speed ms', Expression: '"Ground Speed" / 3.6', DecimalPlaces: '2' });
    expect(json(await t.store.get(editor, 'MathChannels', two.Id)).Parameters).toMatchObject({ Name: 'Speed ms', DecimalPlaces: 2 });
    for (const places of ['0', '6']) {
      const created = await create(editor, { Name: `at ${places}`, Expression: '1', Rate: '1', DecimalPlaces: places });
      expect(json(await t.store.get(editor, 'MathChannels', created.Id)).Parameters.DecimalPlaces).toBe(Number(places));
    }
    await t.store.update(editor, 'MathChannels', two.Id, { ParameterUpdates: [{ Name: 'DecimalPlaces', Value: null }] });
    expect(json(await t.store.get(editor, 'MathChannels', two.Id)).Parameters.DecimalPlaces).toBeNull();
  });

  test.each(['-1', '7', '100'])('when DecimalPlaces is %s, then the write is a 400 naming DecimalPlaces and the range, on create and on update', async (places) => {
    const editor = as('editor');
    const range = { status: 400, errors: { DecimalPlaces: ['must be a whole number from 0 to 6, or empty for full precision'] } };
    expect(await refusal(create(editor, { Name: 'x', Expression: '1', DecimalPlaces: places }))).toMatchObject(range);
    const created = await create(editor, { Name: 'y', Expression: '1' });
    expect(await refusal(t.store.update(editor, 'MathChannels', created.Id, { ParameterUpdates: [{ Name: 'DecimalPlaces', Value: places }] }))).toMatchObject(range);
  });

  test('when DecimalPlaces is not a whole number, then the write is a 400 naming its value as an Integer', async () => {
    const error = await refusal(t.store.create(as('editor'), 'MathChannels', {}, { ParameterUpdates: [{ Name: 'Name', Value: 'x' }, { Name: 'Expression', Value: '1' }, { Name: 'DecimalPlaces', Value: '2.5' }] }));
    expect(error).toMatchObject({ status: 400, errors: { 'ParameterUpdates[2].Value': ["DecimalPlaces is an Integer; '2.5' is not a whole number"] } });
  });
});

describe('MathChannels past MAX_MATH_CHANNELS', () => {
  test('when the account holds the most it may, then a create is a 409 naming the variable and writes nothing, while an update and a create after a delete go through', async () => {
    const limited = new EntityStore(t.pool, t.outbox, undefined, undefined, { ruleLimits: { ...DEFAULT_RULE_LIMITS, maxMathChannels: 2 } });
    const editor = as('editor');
    const createIn = async (parameters: Record<string, string>) => json(await limited.create(editor, 'MathChannels', {}, body(parameters)));
    const first = await createIn({ Name: 'one', Expression: '1' });
    await createIn({ Name: 'two', Expression: 'one * 2' });

    const error = await refusal(createIn({ Name: 'three', Expression: '3' }));
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ status: 409, message: 'The account already has 2 math channels, the most it may hold (MAX_MATH_CHANNELS is 2): delete one first' });
    expect(json(await limited.list(editor, 'MathChannels', {}, ['Name'])).map((c: { Parameters: { Name: string } }) => c.Parameters.Name).sort()).toEqual(['one', 'two']);

    await limited.update(editor, 'MathChannels', first.Id, { ParameterUpdates: [{ Name: 'Expression', Value: '10' }] });
    await limited.delete(editor, 'MathChannels', first.Id);
    await createIn({ Name: 'three', Expression: '3' });
    // Another account has its own room.
    expect(json(await limited.create(as('editor'), 'MathChannels', {}, body({ Name: 'one', Expression: '1' }))).Id).toEqual(expect.any(String));
  });
});

describe('MathChannels past MAX_MATH_PARAMS', () => {
  test('when a definition would read more distinct parameters than it may through the definitions it reads, or bring one reading it past that, then the write is a 400 naming the variable and writes nothing', async () => {
    const limited = new EntityStore(t.pool, t.outbox, undefined, undefined, { ruleLimits: { ...DEFAULT_RULE_LIMITS, maxMathParams: 4 } });
    const editor = as('editor');
    const createIn = async (parameters: Record<string, string>) => json(await limited.create(editor, 'MathChannels', {}, body(parameters)));
    const a = await createIn({ Name: 'a', Expression: 'Speed * param("P1") * param("P2")' });
    // Four through a (P1 read twice is one): at the bound.
    await createIn({ Name: 'b', Expression: 'a + param("P3") * param("P1") + param("P4")' });
    const own = 'the math channel would read more than 4 distinct parameters with param(), through the definitions it reads (MAX_MATH_PARAMS is 4)';
    expect(await refusal(createIn({ Name: 'c', Expression: 'b * param("P5")' }))).toMatchObject({ status: 400, errors: { Expression: [own] } });
    expect(await refusal(createIn({ Name: 'alone', Expression: 'Speed * (param("Q1") + param("Q2") + param("Q3") + param("Q4") + param("Q5"))' }))).toMatchObject({ status: 400, errors: { Expression: [own] } });
    // An edit of a that b reads brings b past it.
    const reader = 'math channel b, which reads this one, would then read more than 4 distinct parameters with param(), through the definitions it reads (MAX_MATH_PARAMS is 4)';
    expect(await refusal(limited.update(editor, 'MathChannels', a.Id, { ParameterUpdates: [{ Name: 'Expression', Value: 'Speed * param("P5") * param("P6")' }] }))).toMatchObject({ status: 400, errors: { Expression: [reader] } });
    // So does a rename that makes b read it.
    const d = await createIn({ Name: 'd', Expression: 'Speed * param("P8") * param("P9")' });
    await limited.update(editor, 'MathChannels', a.Id, { ParameterUpdates: [{ Name: 'Name', Value: 'a old' }] });
    expect(await refusal(limited.update(editor, 'MathChannels', d.Id, { ParameterUpdates: [{ Name: 'Name', Value: 'a' }] }))).toMatchObject({ status: 400, errors: { Name: [reader] } });
    expect(json(await limited.list(editor, 'MathChannels', {}, ['Name', 'Expression'])).map((c: { Parameters: { Name: string } }) => c.Parameters.Name).sort()).toEqual(['a old', 'b', 'd']);
    // Within the bound, writes go through.
    await limited.update(editor, 'MathChannels', d.Id, { ParameterUpdates: [{ Name: 'Expression', Value: 'Speed * param("P1")' }, { Name: 'Name', Value: 'a' }] });
  });

  test('when one was written past a bound since lowered, then writes that leave it so still go through', async () => {
    const editor = as('editor');
    const a = json(await t.store.create(editor, 'MathChannels', {}, body({ Name: 'a', Expression: 'Speed * param("P1") * param("P2") * param("P3")' })));
    json(await t.store.create(editor, 'MathChannels', {}, body({ Name: 'b', Expression: 'a * param("P4")' })));
    const lowered = new EntityStore(t.pool, t.outbox, undefined, undefined, { ruleLimits: { ...DEFAULT_RULE_LIMITS, maxMathParams: 3 } });
    // b reads 4 already: an edit of a that keeps it at 4 (or fewer) is not refused for it.
    await lowered.update(editor, 'MathChannels', a.Id, { ParameterUpdates: [{ Name: 'Expression', Value: 'Speed * param("P1") * param("P2") * param("P5")' }] });
    expect(json(await lowered.get(editor, 'MathChannels', a.Id)).Parameters.Expression).toBe('Speed * param("P1") * param("P2") * param("P5")');
  });
});
