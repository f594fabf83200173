import { randomUUID } from 'node:crypto';
import { AppError } from '@pitwall/service-kit';
import type { CallerContext } from '@pitwall/contracts';
import { EntityStore } from '../../src/domain/entity-store';
import { DEFAULT_RULE_LIMITS } from '../../src/domain/type-rules';
import { entityStoreOnTestDatabase } from '../support/entity-store-database';

// ViewerLayouts: the viewer's saved views, an account-level definition (CRUD, events, editors write, readers read), checked on write.
const t = entityStoreOnTestDatabase();

const as = (role: CallerContext['role'], accountId = randomUUID()): CallerContext => ({ accountId, userId: randomUUID(), role });
const json = (reply: { json: Buffer }) => JSON.parse(reply.json.toString('utf8'));
const body = (parameters: Record<string, string | null>) => ({ ParameterUpdates: Object.entries(parameters).map(([Name, Value]) => ({ Name, Value })) });
const create = async (caller: CallerContext, parameters: Record<string, string>, on = t.store) => json(await on.create(caller, 'ViewerLayouts', {}, body(parameters)));
const refusal = (write: Promise<unknown>) => write.then(() => new Error('written'), (e: unknown) => e);

const QUALIFYING = 'v=1&ch=Ground%20Speed&ch=Throttle%20Pos&panes=unit&y=0,400,unit:km%2Fh';
const pairs = "must be name=value pairs joined by &, URL-encoded as the viewer's link writes them";

describe('ViewerLayouts', () => {
  test('when an editor saves one, then it is stored, read back and listed by a reader of the account, and its event is published', async () => {
    const editor = as('editor');
    const created = await create(editor, { Name: 'Qualifying', Layout: QUALIFYING, Description: 'Speed and throttle, one pane a unit' });
    const reader: CallerContext = { ...editor, userId: randomUUID(), role: 'reader' };
    expect(json(await t.store.get(reader, 'ViewerLayouts', created.Id)).Parameters).toMatchObject({ Name: 'Qualifying', Layout: QUALIFYING, Description: 'Speed and throttle, one pane a unit' });
    expect(json(await t.store.list(reader, 'ViewerLayouts', {}, ['Name']))).toEqual([{ Id: created.Id, Parameters: { Name: 'Qualifying' } }]);
    await t.outbox.settled();
    expect(t.published.filter((p) => p.event.accountId === editor.accountId).map((p) => p.routingKey)).toEqual(['entity.ViewerLayout.created']);
  });

  test('when a reader saves, updates or deletes one, then it is a 403', async () => {
    const editor = as('editor');
    const created = await create(editor, { Name: 'Race', Layout: 'v=1&ch=Ground%20Speed' });
    const reader: CallerContext = { ...editor, userId: randomUUID(), role: 'reader' };
    expect(await refusal(create(reader, { Name: 'Mine', Layout: 'v=1' }))).toMatchObject({ status: 403 });
    expect(await refusal(t.store.update(reader, 'ViewerLayouts', created.Id, body({ Layout: 'v=1' })))).toMatchObject({ status: 403 });
    expect(await refusal(t.store.delete(reader, 'ViewerLayouts', created.Id))).toMatchObject({ status: 403 });
  });

  test('when a name is taken whatever its case, then a create and a rename are a 400 naming Name and the layout that has it; the same layout updated keeps its name, another account has its own names', async () => {
    const editor = as('editor');
    const qualifying = await create(editor, { Name: 'Qualifying', Layout: QUALIFYING });
    const taken = { status: 400, errors: { Name: ['another layout is named Qualifying'] } };
    const error = await refusal(create(editor, { Name: 'QUALIFYING', Layout: 'v=1' }));
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject(taken);
    const race = await create(editor, { Name: 'Race', Layout: 'v=1' });
    expect(await refusal(t.store.update(editor, 'ViewerLayouts', race.Id, body({ Name: 'qualifying' })))).toMatchObject(taken);
    // Its own name, another case of it, and a new Layout under it: no clash with itself.
    await t.store.update(editor, 'ViewerLayouts', qualifying.Id, body({ Name: 'qualifying', Layout: 'v=1&ch=Ground%20Speed' }));
    expect(json(await t.store.get(editor, 'ViewerLayouts', qualifying.Id)).Parameters).toMatchObject({ Name: 'qualifying', Layout: 'v=1&ch=Ground%20Speed' });
    expect((await create(as('editor'), { Name: 'Qualifying', Layout: 'v=1' })).Id).toEqual(expect.any(String));
    // Deleted, its name is free again.
    await t.store.delete(editor, 'ViewerLayouts', qualifying.Id);
    expect((await create(editor, { Name: 'Qualifying', Layout: 'v=1' })).Id).toEqual(expect.any(String));
  });

  test.each([
    ['', "is required: the viewer's view as v=1&ch=<channel>&…"],
    ['ch=Ground%20Speed', 'must give its version once, as v=1 (the layout format this service knows)'],
    ['v=1&v=1&ch=x', 'must give its version once, as v=1 (the layout format this service knows), not 2 times'],
    ['v=2&ch=Ground%20Speed', 'v=2 is not a layout version this service knows: it knows v=1'],
    ['{"version":1,"channels":["Ground Speed"]}', `${pairs}: pair 1 "{"version":1,"channels":["Ground Speed"]…" is not`],
    ['v=1&ch=Ground Speed', `${pairs}: pair 2 "ch=Ground Speed" is not`],
    ['v=1&&ch=x', `${pairs}: pair 2 "" is not`],
    ['v=1&ch=%E9t%C3', `${pairs}: pair 2 "ch=%E9t%C3" holds a % that is not an encoded UTF-8 character`],
    // Names read as the viewer reads them: %76 is v, a second version.
    ['v=1&%76=2', 'must give its version once, as v=1 (the layout format this service knows), not 2 times'],
    ['%76=2', 'v=2 is not a layout version this service knows: it knows v=1'],
    // A y scale a plot cannot step through: 1e16 + 1 is 1e16 in a float64, the axis's ticks would never end.
    ['v=1&ch=Ground%20Speed&y=10000000000000000%2C10000000000000004%2CGround%20Speed', 'y scale 1 "10000000000000000,10000000000000004,Grou…" is too narrow for its size: the max must exceed the min by more than 1e-12 of their size, or a plot has no number to step its ticks to'],
    ['v=1&y=0,400,a&y=1.0000000000001,1.0000000000002,b', 'y scale 2 "1.0000000000001,1.0000000000002,b" is too narrow for its size: the max must exceed the min by more than 1e-12 of their size, or a plot has no number to step its ticks to'],
    ['v=1&y=400,0,unit%3Akm%2Fh', 'y scale 1 "400,0,unit:km/h" is not <min>,<max>,<pane> with the min below the max'],
    ['v=1&y=0,x,Speed', 'y scale 1 "0,x,Speed" is not <min>,<max>,<pane> with the min below the max'],
    ['v=1&y=0,400', 'y scale 1 "0,400" is not <min>,<max>,<pane> with the min below the max'],
  ])('when the Layout is %j, then it is a 400 naming Layout and what is wrong', async (layout, reason) => {
    const error = await refusal(create(as('editor'), { Name: 'bad', Layout: layout }));
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ status: 400, message: 'The viewer layout is not valid', errors: { Layout: [reason] } });
  });

  test('when the name is empty or holds a control character, then it is a 400 naming Name, with the Layout\'s fault beside it', async () => {
    const editor = as('editor');
    expect(await refusal(create(editor, { Name: ' ', Layout: 'v=1' }))).toMatchObject({ status: 400, errors: { Name: ['is required'] } });
    expect(await refusal(create(editor, { Name: 'a\tb', Layout: 'x=1' }))).toMatchObject({
      status: 400,
      errors: { Name: ['must be at most 200 characters, without control, format or line separator characters'], Layout: ['must give its version once, as v=1 (the layout format this service knows)'] },
    });
  });

  test('when a name begins or ends with a space or holds a format character (U+202E, a zero-width joiner) or a line separator (U+2028), then it is a 400 naming Name: "Trail " is not listed beside "Trail"', async () => {
    const editor = as('editor');
    await create(editor, { Name: 'Trail', Layout: 'v=1' });
    for (const name of ['Trail ', ' Trail', 'Trail\u00a0']) expect(await refusal(create(editor, { Name: name, Layout: 'v=1' }))).toMatchObject({ status: 400, errors: { Name: ['must not begin or end with a space'] } });
    for (const name of ['Race\u202Eweiv', 'Qu\u200Dali', 'Quali\u2028Race']) expect(await refusal(create(editor, { Name: name, Layout: 'v=1' }))).toMatchObject({ status: 400, errors: { Name: ['must be at most 200 characters, without control, format or line separator characters'] } });
    expect(json(await t.store.list(editor, 'ViewerLayouts', {}, ['Name'])).map((l: { Parameters: { Name: string } }) => l.Parameters.Name)).toEqual(['Trail']);
  });

  test('when one was stored with a name written before the name rules ("Trail "), then its layout can still be changed; a new name is checked', async () => {
    const editor = as('editor');
    const kept = await create(editor, { Name: 'Trail', Layout: 'v=1' });
    await t.pool.query(`UPDATE entity.entities SET parameters = jsonb_set(parameters, '{Name}', '"Trail "') WHERE id = $1`, [kept.Id]);
    await t.store.update(editor, 'ViewerLayouts', kept.Id, body({ Layout: QUALIFYING }));
    expect(json(await t.store.get(editor, 'ViewerLayouts', kept.Id)).Parameters).toMatchObject({ Name: 'Trail ', Layout: QUALIFYING });
    expect(await refusal(t.store.update(editor, 'ViewerLayouts', kept.Id, body({ Name: ' Trail' })))).toMatchObject({ status: 400, errors: { Name: ['must not begin or end with a space'] } });
  });

  test('when the Description is longer than 1,000 characters, then it is a 400 naming Description; one of 1,000 is saved', async () => {
    const editor = as('editor');
    expect((await create(editor, { Name: 'long said', Layout: 'v=1', Description: 'd'.repeat(1000) })).Id).toEqual(expect.any(String));
    expect(await refusal(create(editor, { Name: 'too long said', Layout: 'v=1', Description: 'd'.repeat(900_000) }))).toMatchObject({ status: 400, errors: { Description: ['must be at most 1,000 characters, not 900,000'] } });
  });

  test('when 12 layouts of one name in mixed case are created at once, then exactly one is saved and the others are a 400 naming it', async () => {
    const editor = as('editor');
    // qualifying, Qualifying, qUalifying, QUalifying, …: twelve spellings, each letter's case from a bit of i.
    const names = Array.from({ length: 12 }, (_, i) => [...'qualifying'].map((c, j) => ((i >> j % 4) & 1 ? c.toUpperCase() : c)).join(''));
    expect(new Set(names).size).toBe(12);
    const outcomes = await Promise.allSettled(names.map((Name) => create(editor, { Name, Layout: 'v=1&ch=Ground%20Speed' })));
    const saved = outcomes.filter((o) => o.status === 'fulfilled');
    expect(saved).toHaveLength(1);
    const refused = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as unknown] : []));
    expect(refused).toHaveLength(11);
    const savedName = (saved[0] as PromiseFulfilledResult<{ Parameters: { Name: string } }>).value.Parameters.Name;
    for (const reason of refused) expect(reason).toMatchObject({ status: 400, errors: { Name: [`another layout is named ${savedName}`] } });
    expect(json(await t.store.list(editor, 'ViewerLayouts', {}, ['Name']))).toHaveLength(1);
  });

  test('when another account has layouts, then they are not listed, read, updated or deleted through this one', async () => {
    const mine = as('editor');
    const theirs = as('editor');
    const their = await create(theirs, { Name: 'Their view', Layout: 'v=1&ch=Ground%20Speed' });
    await create(mine, { Name: 'My view', Layout: 'v=1&ch=Throttle%20Pos' });
    expect(json(await t.store.list(mine, 'ViewerLayouts', {}, ['Name'])).map((l: { Parameters: { Name: string } }) => l.Parameters.Name)).toEqual(['My view']);
    expect(await refusal(t.store.get(mine, 'ViewerLayouts', their.Id))).toMatchObject({ status: 404 });
    expect(await refusal(t.store.update(mine, 'ViewerLayouts', their.Id, body({ Layout: 'v=1' })))).toMatchObject({ status: 404 });
    expect(await refusal(t.store.delete(mine, 'ViewerLayouts', their.Id))).toMatchObject({ status: 404 });
    expect(json(await t.store.get(theirs, 'ViewerLayouts', their.Id)).Parameters).toMatchObject({ Name: 'Their view', Layout: 'v=1&ch=Ground%20Speed' });
  });

  test('when an update makes the Layout unreadable, then it is a 400 and the stored layout is unchanged', async () => {
    const editor = as('editor');
    const created = await create(editor, { Name: 'Stint', Layout: QUALIFYING });
    expect(await refusal(t.store.update(editor, 'ViewerLayouts', created.Id, body({ Layout: 'v=9' })))).toMatchObject({ status: 400, errors: { Layout: ['v=9 is not a layout version this service knows: it knows v=1'] } });
    expect(json(await t.store.get(editor, 'ViewerLayouts', created.Id)).Parameters.Layout).toBe(QUALIFYING);
  });
});

describe('ViewerLayouts past MAX_VIEWER_LAYOUTS', () => {
  test('when the account holds the most it may, then a create is a 409 naming the variable and writes nothing, while an update and a create after a delete go through', async () => {
    const limited = new EntityStore(t.pool, t.outbox, undefined, undefined, { ruleLimits: { ...DEFAULT_RULE_LIMITS, maxViewerLayouts: 2 } });
    const editor = as('editor');
    const createIn = (parameters: Record<string, string>) => create(editor, parameters, limited);
    const first = await createIn({ Name: 'one', Layout: 'v=1' });
    await createIn({ Name: 'two', Layout: 'v=1' });

    const error = await refusal(createIn({ Name: 'three', Layout: 'v=1' }));
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ status: 409, message: 'The account already has 2 viewer layouts, the most it may hold (MAX_VIEWER_LAYOUTS is 2): delete one first' });
    expect(json(await limited.list(editor, 'ViewerLayouts', {}, ['Name'])).map((c: { Parameters: { Name: string } }) => c.Parameters.Name).sort()).toEqual(['one', 'two']);

    await limited.update(editor, 'ViewerLayouts', first.Id, body({ Layout: 'v=1&ch=Gear' }));
    await limited.delete(editor, 'ViewerLayouts', first.Id);
    await createIn({ Name: 'three', Layout: 'v=1' });
    // Another account has its own room.
    expect((await create(as('editor'), { Name: 'one', Layout: 'v=1' }, limited)).Id).toEqual(expect.any(String));
  });
});

describe('ViewerLayouts past MAX_VIEWER_LAYOUT_LENGTH', () => {
  test('when the Layout is longer than the limit, then it is a 400 naming the variable and the length; one at the limit is saved', async () => {
    const limited = new EntityStore(t.pool, t.outbox, undefined, undefined, { ruleLimits: { ...DEFAULT_RULE_LIMITS, maxViewerLayoutLength: 40 } });
    const editor = as('editor');
    const atLimit = `v=1&ch=${'x'.repeat(33)}`;
    expect(atLimit).toHaveLength(40);
    expect((await create(editor, { Name: 'at the limit', Layout: atLimit }, limited)).Id).toEqual(expect.any(String));
    expect(await refusal(create(editor, { Name: 'past it', Layout: `${atLimit}y` }, limited))).toMatchObject({ status: 400, errors: { Layout: ['must be at most 40 characters (MAX_VIEWER_LAYOUT_LENGTH), not 41'] } });
  });

  test('when the default limit is used, then it is 32 KiB, the longest link the viewer reads', async () => {
    const editor = as('editor');
    const long = `v=1&ch=${'x'.repeat(32 * 1024 - 7)}`;
    expect((await create(editor, { Name: '32 KiB', Layout: long })).Id).toEqual(expect.any(String));
    expect(await refusal(create(editor, { Name: 'past 32 KiB', Layout: `${long}y` }))).toMatchObject({ status: 400, errors: { Layout: ['must be at most 32768 characters (MAX_VIEWER_LAYOUT_LENGTH), not 32769'] } });
  });
});
