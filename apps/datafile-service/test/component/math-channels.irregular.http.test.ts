import { defineMathChannel, useDatafileStack } from '../support/datafile-stack';

// Tests look into arbitrary answer shapes.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/**
 * Math channels on a channel with times of its own (a CSV whose rows are 0.1 s apart, with no row from 15 s to 20 s):
 * nested time functions read their margins in turn across that gap, so a window's values are the whole file's only when
 * the read evaluates them over the whole channel (a review found derivative(smooth(X, 2)) at 20 s 1.274 over the whole
 * file and 1.644 in a window from 20 s, and derivative(delay(X, 1)) a gap there).
 */
describe('math channels over a channel with irregular times: the same value whatever read asks for it', () => {
  const started = useDatafileStack('datafile-math-irregular-');
  let runSheet: string;
  const times = [...Array.from({ length: 151 }, (_, i) => i / 10), ...Array.from({ length: 101 }, (_, i) => 20 + i / 10)];
  const csv = `Time,X\n${times.map((t) => `${t.toFixed(1)},${(Math.sin(t / 1.7) * 10 + t * t * 0.05).toFixed(4)}`).join('\n')}\n`;
  const definitions: [string, string][] = [
    ['Rate of smooth', 'derivative(smooth(X, 2))'],
    ['Rate of delayed', 'derivative(delay(X, 1))'],
    ['Smooth of rate', 'smooth(derivative(X), 1.5)'],
  ];

  beforeAll(async () => {
    runSheet = await started.attached.entityWithFile('DataFile', 'irregular.csv', new TextEncoder().encode(csv));
    for (const [Name, Expression] of definitions) await defineMathChannel(started, { Name, Expression, Unit: '' });
  }, 90_000);

  const read = async (body: unknown): Promise<Json[]> => {
    const r = await fetch(`${started.base}/RunSheets/${runSheet}/DataFileAccess/DataFile/channels`, { method: 'POST', headers: { ...started.headers, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const answer: Json = await r.json();
    expect({ status: r.status, answer: r.status === 200 ? undefined : answer }).toEqual({ status: 200, answer: undefined });
    return answer.channels;
  };
  /** A record's times: its own (`times`), or from its start and rate (a channel the file logs regularly). */
  const timesOf = (record: Json): number[] => record.times ?? record.samples.map((_: unknown, k: number) => record.startTime + k / record.frequency);
  const byTime = (record: Json) => new Map<number, number | null>(timesOf(record).map((t, k) => [Math.round(t * 1e6), record.samples[k]]));

  test('when nested time functions are read in windows starting at, before and after the gap, then every value is the whole-file read\'s at its time', async () => {
    const names = definitions.map(([name]) => name);
    const whole = (await read({ channels: names, mode: 0 })).map(byTime);
    for (const [startTime, duration] of [[20, 5], [14.35, 7], [21.05, 0.5], [0, 3]] as const) {
      const windowed = await read({ channels: names, mode: 2, startTime, duration });
      windowed.forEach((record, c) => {
        const all = whole[c] as Map<number, number | null>;
        // Times of its own: the rows 0.1 s apart with none from 15 s to 20 s.
        expect(record.times?.length).toBeGreaterThan(0);
        timesOf(record).forEach((t, k) => {
          const expected = all.get(Math.round(t * 1e6));
          const actual = record.samples[k];
          const same = expected === null ? actual === null : actual !== null && Math.abs(actual - (expected as number)) <= 1e-9 * Math.max(1, Math.abs(expected as number));
          if (!same) expect({ channel: record.name, window: [startTime, duration], t, actual }).toEqual({ channel: record.name, window: [startTime, duration], t, actual: expected });
        });
      });
    }
  });
});
