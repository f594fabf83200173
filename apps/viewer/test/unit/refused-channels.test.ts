import { ApiError } from '../../src/errors';
import { readWithoutRefused, refusedChannels, refusedFields, refusedRead, unreadByChannel } from '../../src/refused-channels';

/** The service's 422 refusing the channels at `indexes` of a read, each with its reason. */
const refusal = (reasons: Record<number, string>, status = 422) => new ApiError({ status, problem: { detail: 'The data file could not be read', errors: Object.fromEntries(Object.entries(reasons).map(([i, why]) => [`channels[${i}]`, [why]])) } });

describe('refusedChannels', () => {
  test('when a 422 or 400 names only channels[i] fields, then those channels are refused with their reasons; anything else is no refusal of channels', () => {
    expect(refusedChannels(refusal({ 1: 'math channel B reads param("R")' }), ['A', 'B'])).toEqual([{ name: 'B', why: 'math channel B reads param("R")' }]);
    expect(refusedChannels(new ApiError({ status: 422, problem: { errors: { channels: ['too many parameters together'] } } }), ['A', 'B'])).toBeNull();
    expect(refusedChannels(new ApiError({ status: 500 }), ['A'])).toBeNull();
    expect(refusedChannels(new Error('network'), ['A'])).toBeNull();
    expect(refusedChannels(refusal({ 5: 'x' }), ['A'])).toBeNull();
    expect(refusedChannels(refusal({ 0: 'y'.repeat(300) }), ['A'])?.[0]?.why).toHaveLength(200);
  });
});

describe('refusedFields', () => {
  const scatter = [['x', 'Ground Speed'], ['y', 'Steer'], ['colour', 'Speed scaled']] as const;
  const refusing = (errors: Record<string, string[]>, status = 422) => new ApiError({ status, problem: { detail: 'The data file could not be read: RunSheets 1: ...', errors } });

  test('when a 422 or 400 names only fields of the read\'s channels (a scatter\'s x, y, colour), then each is refused with its channel and reason; any other field is no refusal of channels', () => {
    expect(refusedFields(refusing({ colour: ['math channel Speed scaled reads param("M")'] }), scatter)).toEqual([{ field: 'colour', name: 'Speed scaled', why: 'math channel Speed scaled reads param("M")' }]);
    expect(refusedFields(refusing({ x: ['no channel "Ground Speed"'], colour: ['a'] }, 400), scatter)?.map((r) => r.name)).toEqual(['Ground Speed', 'Speed scaled']);
    expect(refusedFields(refusing({ colour: ['a'], lapIndex: ['past the last lap'] }), scatter)).toBeNull();
    expect(refusedFields(refusing({ colour: ['a'] }, 415), scatter)).toBeNull();
  });

  test('when an analysis read is refused for its own channels, then it is said as that read\'s, each channel by its role with the status and the service\'s reason', () => {
    const refused = [{ field: 'y', name: 'Steer', why: 'math channel Steer reads param("R")' }];
    expect(refusedRead('The scatter', 422, refused, (f) => `${f.toUpperCase()} channel`)).toBe('The scatter was not drawn: the service could not read its Y channel "Steer" (422: math channel Steer reads param("R")).');
  });
});

describe('readWithoutRefused', () => {
  /** A read the service answers with the channels asked, refusing those of `refuses` (a file's math channels it cannot compute). */
  function service(refuses: Record<string, string>) {
    const asked: string[][] = [];
    const read = async (channels: string[]) => {
      asked.push(channels);
      const refused = Object.fromEntries(channels.flatMap((c, i) => (c in refuses ? [[i, refuses[c] as string]] : [])));
      if (Object.keys(refused).length) throw refusal(refused);
      return channels.map((c) => `${c} read`);
    };
    return { asked, read };
  }

  test('when a channel is refused on its own, then the read is made again without it, and it is said with its reason', async () => {
    const { asked, read } = service({ Steer: 'math channel Steer reads param("R")' });
    expect(await readWithoutRefused(['Speed', 'Steer', 'Throttle'], read)).toEqual({ answer: ['Speed read', 'Throttle read'], asked: ['Speed', 'Throttle'], unread: [{ name: 'Steer', why: 'math channel Steer reads param("R")' }] });
    expect(asked).toEqual([['Speed', 'Steer', 'Throttle'], ['Speed', 'Throttle']]);
  });

  test('when every channel is refused, then the refusal is thrown, unless none read is an answer (a lap of the comparison), which says them all', async () => {
    const { read } = service({ Steer: 'no R' });
    await expect(readWithoutRefused(['Steer'], read)).rejects.toBeInstanceOf(ApiError);
    const none = await readWithoutRefused(['Steer'], read, true);
    expect(none).toMatchObject({ answer: null, asked: [], unread: [{ name: 'Steer', why: 'no R' }] });
    expect('error' in none && none.error).toBeInstanceOf(ApiError);
  });

  test('when the read fails otherwise, then that failure is thrown as it is', async () => {
    const failure = new ApiError({ status: 429, retryAfter: '1' });
    await expect(readWithoutRefused(['Speed'], () => Promise.reject(failure), true)).rejects.toBe(failure);
  });
});

describe('unreadByChannel', () => {
  const laps = [{ label: 'Run 9 / DataFile lap 2 (1:05.170)' }, { label: 'Run 7 / DataFile lap 3 (1:03.680)' }, { label: 'Run 9 / DataFile lap 4 (1:04.000)' }];

  test('when a channel is refused for some laps, then it is said once a reason with those laps; for all of them, "every lap"', () => {
    expect(unreadByChannel(laps, [[{ name: 'Steer', why: 'no R on Car 9' }], [], [{ name: 'Steer', why: 'no R on Car 9' }]])).toEqual(['"Steer" for Run 9 / DataFile lap 2 (1:05.170), Run 9 / DataFile lap 4 (1:04.000) (no R on Car 9)']);
    expect(unreadByChannel(laps, [[{ name: 'Steer', why: 'a' }], [{ name: 'Steer', why: 'b' }], []])).toEqual(['"Steer" for Run 9 / DataFile lap 2 (1:05.170) (a)', '"Steer" for Run 7 / DataFile lap 3 (1:03.680) (b)']);
    expect(unreadByChannel(laps, laps.map(() => [{ name: 'Steer', why: 'a' }]))).toEqual(['"Steer" for every lap (a)']);
    expect(unreadByChannel(laps, [[], [], []])).toEqual([]);
  });

  test('when a channel is refused for many laps, then three are named and the others counted', () => {
    const many = Array.from({ length: 6 }, (_, i) => ({ label: `lap ${i + 1}` }));
    expect(unreadByChannel(many, many.map((_, i) => (i < 5 ? [{ name: 'X', why: 'w' }] : [])))).toEqual(['"X" for lap 1, lap 2, lap 3 and 2 more laps (w)']);
  });
});
