import type { ChannelInfo } from '@pitwall/formats';
import type { OpenDataset } from '../../src/domain/datasets';
import type { MathDefinition } from '../../src/domain/math-definitions';
import { mathCatalogue, paramsReadBy, resolveMathChannels, timeBaseGroups } from '../../src/domain/read-math-channels';

const channel = (name: string, frequency: number, extra: Partial<ChannelInfo> = {}): ChannelInfo => ({
  name,
  unit: '',
  frequency,
  regular: true,
  sampleCount: frequency * 10,
  dimension: 1,
  dataType: 'int16',
  ...extra,
});

/** A 10 s file's catalogue: all that resolving math channels looks at (no sample is read). */
const file = { startTime: 0, duration: 10, laps: [], channels: [channel('Engine RPM', 100), channel('Speed', 50), channel('Tags', 10, { kind: 'text' })] } as unknown as OpenDataset['file'];

const definitions = (entries: [string, string, number?][]) => new Map<string, MathDefinition>(entries.map(([name, expression, rate]) => [name, { name, expression, unit: '', ...(rate ? { rate } : {}) }]));

/** n definitions, each reading the one before; the first reads Speed. */
const chain = (n: number) => definitions(Array.from({ length: n }, (_, i): [string, string] => [`c${i}`, i ? `c${i - 1} + 1` : 'Speed * 2']));

describe('the math catalogue of a file', () => {
  test('when definitions read one another, then those the file can evaluate are listed, on the time base of the fastest channel they read (not one reading no channel without a Rate, nor lapDistance() in a file without a distance source)', () => {
    const defs = definitions([
      ['Both', '"Engine RPM" / Speed'],
      ['Through', 'Both + Speed'],
      ['Slow', 'Speed', 2],
      ['Missing', 'Nope + 1'],
      ['Reads missing', 'Missing * 2'],
      ['Text', 'Tags + 1'],
      ['Broken', 'Speed +'],
      ['Reads broken', 'Broken'],
      ['Loop a', '"Loop b" + Speed'],
      ['Loop b', '"Loop a"'],
      ['Into loop', '"Loop a" + 1'],
      ['Speed', '1'],
      ['Constant', 'pi * 2'],
      ['Constant at 5 Hz', 'pi', 5],
      ['Lap distance', 'lapDistance() + Speed'],
      ['Reads lap distance', '"Lap distance" * 2', 10],
    ]);
    const listed = mathCatalogue(file, defs).map((c) => [c.name, c.frequency, c.sampleCount]);
    expect(listed).toEqual([
      ['Both', 100, 1000],
      ['Through', 100, 1000],
      ['Slow', 2, 21],
      // Reading no channel: the grid over the file's half-open span [0, 10), as a logged 5 Hz channel's 50 samples.
      ['Constant at 5 Hz', 5, 50],
    ]);
  });

  test('when definitions need a Rate or a distance source, directly or through those they read, then the catalogue lists exactly what a read resolves', () => {
    const defs = definitions([
      ['Constant', '42'],
      ['Constant at 10 Hz', '42', 10],
      ['Reads constant', 'Constant * 2'],
      ['Reads constant at 5 Hz', 'Constant * 2', 5],
      ['Lap distance', 'lapDistance()'],
      ['Lap distance at 10 Hz', 'lapDistance()', 10],
      ['Reads lap distance', '"Lap distance" + Speed'],
      ['Lap time', 'lapTime() + Speed'],
      ['Lap number', 'lapNumber()'],
      ['Lap number at 10 Hz', 'lapNumber()', 10],
      ['Both', '"Engine RPM" / Speed'],
      ['Missing', 'Nope + 1'],
      ['Loop a', '"Loop b" + Speed'],
      ['Loop b', '"Loop a"'],
    ]);
    const withSpeedInKmh = { ...file, channels: file.channels.map((c) => (c.name === 'Speed' ? { ...c, unit: 'km/h' } : c)) } as OpenDataset['file'];
    for (const f of [file, withSpeedInKmh]) {
      const resolvable = [...defs.keys()].filter((name) => {
        try {
          return resolveMathChannels(f, [name], defs, () => 'channel').has(name);
        } catch {
          return false;
        }
      });
      expect(mathCatalogue(f, defs).map((c) => c.name)).toEqual(resolvable);
    }
    // Speed in km/h is a distance source: lapDistance() can be evaluated only then, and alone only at a Rate (it sets no time base).
    // lapNumber() sets no time base either: alone it needs a Rate, and needs no distance source.
    expect(mathCatalogue(file, defs).map((c) => c.name)).toEqual(['Constant at 10 Hz', 'Reads constant at 5 Hz', 'Lap time', 'Lap number at 10 Hz', 'Both']);
    expect(mathCatalogue(withSpeedInKmh, defs).map((c) => c.name)).toEqual(['Constant at 10 Hz', 'Reads constant at 5 Hz', 'Lap distance at 10 Hz', 'Reads lap distance', 'Lap time', 'Lap number at 10 Hz', 'Both']);
    expect(() => resolveMathChannels(withSpeedInKmh, ['Lap distance'], defs, () => 'channel')).toThrow('math channel Lap distance reads no channel: give it a Rate to be evaluated at');
  });

  test('when 20,000 definitions each read the one before, then each is listed, and the last resolves to all of them in order', () => {
    const defs = chain(20_000);
    const listed = mathCatalogue(file, defs);
    expect(listed).toHaveLength(20_000);
    expect(listed.at(-1)).toMatchObject({ name: 'c19999', frequency: 50, sampleCount: 500, group: 'Math', expression: 'c19998 + 1' });
    const resolved = resolveMathChannels(file, ['c19999'], defs, () => 'channel').get('c19999');
    const ordered = resolved?.math.order.definitionsOf(['c19999']);
    expect(ordered?.map((d) => d.name).slice(0, 2)).toEqual(['c0', 'c1']);
    expect(ordered).toHaveLength(20_000);
    expect(resolved?.math.leaves.map((c) => c.name)).toEqual(['Speed']);
  });

  test('when definitions share what they read (a diamond), then each lists the logged channels it reads once, in the order a walk from it meets them', () => {
    const wide = { ...file, channels: ['w', 'x', 'y', 'z'].map((n, i) => channel(n, 10 * (i + 1))) } as unknown as OpenDataset['file'];
    const defs = definitions([
      ['A', 'x + y'],
      ['B', 'y + z + y'],
      ['C', 'B + A + w + x'],
      ['D', 'C + A + B'],
    ]);
    const infos = resolveMathChannels(wide, ['D', 'C', 'B', 'A'], defs, (i) => `channels[${i}]`);
    expect(Object.fromEntries([...infos].map(([name, info]) => [name, [info.math.leaves.map((c) => c.name), info.frequency]]))).toEqual({
      A: [['x', 'y'], 30],
      B: [['y', 'z'], 40],
      C: [['y', 'z', 'x', 'w'], 40],
      D: [['y', 'z', 'x', 'w'], 40],
    });
    expect(mathCatalogue(wide, defs).map((c) => [c.name, c.frequency, c.sampleCount])).toEqual([
      ['A', 30, 300],
      ['B', 40, 400],
      ['C', 40, 400],
      ['D', 40, 400],
    ]);
  });

  test('when a chain of 990 definitions each adds a channel of its own to the 2,000 its first reads through 5 others, then each lists its 2,000 and those of the chain before it, on the time base of the first fastest of them', () => {
    // The shape a hostile review used: merging copied the inherited list at each definition (seconds of the event loop
    // for the metadata). Each of the 2,000 base channels at 10 Hz but the 1,234th (100 Hz); the chain's 600th at 200 Hz.
    const base = Array.from({ length: 2000 }, (_, i) => channel(`b${i}`, i === 1234 ? 100 : 10));
    const own = Array.from({ length: 990 }, (_, k) => channel(`k${k}`, k === 600 ? 200 : 10));
    const wide = { ...file, channels: [...base, ...own] } as unknown as OpenDataset['file'];
    // 400 channels a definition, summed in 20 groups of 20 (an expression nests at most 100 deep).
    const sum = (names: string[]) => Array.from({ length: names.length / 20 }, (_, j) => `(${names.slice(j * 20, (j + 1) * 20).join(' + ')})`).join(' + ');
    const entries: [string, string][] = Array.from({ length: 5 }, (_, g): [string, string] => [`Base ${g}`, sum(base.slice(g * 400, (g + 1) * 400).map((c) => c.name))]);
    entries.push(['All', entries.map(([name]) => `"${name}"`).join(' + ')]);
    for (let k = 0; k < 990; k++) entries.push([`D${k}`, `${k ? `D${k - 1}` : 'All'} + k${k}`]);
    const defs = definitions(entries);
    const catalogue = new Map(mathCatalogue(wide, defs).map((c) => [c.name, [c.frequency, c.sampleCount]]));
    expect(catalogue.size).toBe(996);
    expect([catalogue.get('All'), catalogue.get('D599'), catalogue.get('D600'), catalogue.get('D989')]).toEqual([
      [100, 1000],
      [100, 1000],
      [200, 2000],
      [200, 2000],
    ]);
    const last = resolveMathChannels(wide, ['D989'], defs, (i) => `channels[${i}]`).get('D989');
    expect(last?.math.leaves.map((c) => c.name)).toEqual([...base, ...own].map((c) => c.name));
  });

  test('when five accounts of a thousand definitions each (more than the 4,096 expressions a process keeps compiled) are resolved in turn, then each definition is compiled once, not once a read', () => {
    let looked = 0;
    // A definition whose expression text counts how often it is read: compiling it reads it, a kept compilation does not.
    const counted = (name: string, expression: string): MathDefinition => ({
      name,
      unit: '',
      get expression() {
        looked++;
        return expression;
      },
    });
    const accounts = Array.from({ length: 5 }, (_, a) => new Map(Array.from({ length: 1000 }, (_, k) => [`m${k}`, counted(`m${k}`, `Speed * ${a * 1000 + k + 1}`)] as const)));
    const resolveAll = () => accounts.map((defs) => resolveMathChannels(file, [...defs.keys()], defs, (i) => `channels[${i}]`).size);
    expect(resolveAll()).toEqual([1000, 1000, 1000, 1000, 1000]);
    expect(looked).toBe(5000);
    looked = 0;
    expect(resolveAll()).toEqual([1000, 1000, 1000, 1000, 1000]);
    expect(looked).toBe(0);
  });

  test('when a read names all 20,000 definitions of a chain, then each is looked up once, each plan holds only its own, and the task of their time base has each once, in order', () => {
    const defs = chain(20_000);
    // The definitions as the read's store hands them over, counting what resolving looks up (a list per plan was n²/2).
    let lookups = 0;
    const counted = new (class extends Map<string, MathDefinition> {
      override get(name: string) {
        lookups++;
        return super.get(name);
      }
    })(defs);
    const names = [...defs.keys()];
    const infos = resolveMathChannels(file, names, counted, (i) => `channels[${i}]`);
    expect(infos.size).toBe(20_000);
    expect(lookups).toBeLessThanOrEqual(20_000);
    const held = new Set([...infos.values()].map(({ math }) => `${Object.keys(math).sort().join()}: ${math.leaves.map((c) => c.name).join()}`));
    expect([...held]).toEqual(['definition,lapDistance,lapNumber,lapTime,leaves,order,params: Speed']);
    const last = infos.get('c19999');
    expect(last).toMatchObject({ frequency: 50, sampleCount: 500, math: { definition: { expression: 'c19998 + 1' } } });
    lookups = 0;
    const groups = timeBaseGroups([...infos.values()], () => ({ key: 'input Speed 0 500', baseInput: 'Speed', from: 0, to: 500 }));
    expect(lookups).toBe(20_000);
    expect(groups).toHaveLength(1);
    expect(groups[0]?.definitions.map((d) => d.name)).toEqual(names);
    expect(groups[0]?.leaves.map((c) => c.name)).toEqual(['Speed']);
  });

  test('when the first of 20,000 chained definitions reads a channel the file lacks, then none is listed, and a read of the last names the channel', () => {
    const defs = chain(20_000);
    defs.set('c0', { name: 'c0', expression: 'Nope', unit: '' });
    expect(mathCatalogue(file, defs)).toEqual([]);
    expect(() => resolveMathChannels(file, ['c19999'], defs, () => 'channel')).toThrow('math channel c19999 reads Nope, which this file does not have');
  });

  test('when a math channel reads a channel the file lacks by a typo, then the refusal of a read says which channel is close, and the catalogue leaves it out', () => {
    const defs = new Map([['Speed x2', { name: 'Speed x2', expression: 'speed * 2', unit: '' }]]);
    expect(mathCatalogue(file, defs)).toEqual([]);
    let message = '';
    try {
      resolveMathChannels(file, ['Speed x2'], defs, () => 'channel');
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('math channel Speed x2 reads speed, which this file does not have (did you mean "Speed"?)');
    expect(message).not.toContain('\u0000');
  });

  test('when math channels read param() through one another, then each plan and catalogue entry names every parameter its chain reads, once', () => {
    const defs = definitions([
      ['Speed ratio', 'Speed / param("Ratio")'],
      ['Scaled', '"Speed ratio" * param("Wheelbase") + param("Ratio")'],
      ['Plain', 'Speed * 2'],
    ]);
    const infos = resolveMathChannels(file, ['Scaled', 'Plain', 'Speed'], defs, () => 'channel');
    expect(paramsReadBy(['Scaled', 'Speed', 'Plain'], infos).map((read) => read && { ...read, params: [...read.params] })).toEqual([{ name: 'Scaled', params: ['Wheelbase', 'Ratio'] }, undefined, { name: 'Plain', params: [] }]);
    const listed = mathCatalogue(file, defs).map((c) => [c.name, c.params && [...c.params]]);
    expect(listed).toEqual([['Speed ratio', ['Ratio']], ['Scaled', ['Wheelbase', 'Ratio']], ['Plain', undefined]]);
  });
});

describe('the parameters math channels read through one another (MAX_MATH_PARAMS)', () => {
  /** A sum of param() of `names`, in groups of 40 in parentheses (each + of a chain is one nesting level). */
  const sumOf = (names: string[]) => Array.from({ length: Math.ceil(names.length / 40) }, (_, g) => `(${names.slice(g * 40, g * 40 + 40).map((n) => `param("${n}")`).join('+')})`).join('+');
  /** n definitions, each reading the one before and `own` parameters of its own, none read by another (short names: an expression holds at most 4,096 characters). */
  const paramChain = (n: number, own: number) =>
    definitions(
      Array.from({ length: n }, (_, i): [string, string] => {
        const names = Array.from({ length: own }, (_, j) => `P${(i * own + j).toString(36)}`);
        return [`c${i}`, `${i ? `c${i - 1}` : 'Speed'} * (${sumOf(names)})`];
      }),
    );
  const refusalOf = (run: () => unknown) => {
    try {
      run();
    } catch (error) {
      return error as { status: number; message: string; errors: Record<string, string[]> };
    }
    throw new Error('not refused');
  };

  test('when 1,000 definitions each read the one before and 250 parameters of their own, then under the default bound (1,024) the four that read at most 1,024 are listed, each naming its own, and a read of the last is a 422 naming MAX_MATH_PARAMS', () => {
    const defs = paramChain(1000, 250);
    const listed = mathCatalogue(file, defs);
    expect(listed.map((c) => [c.name, c.params?.size])).toEqual([['c0', 250], ['c1', 500], ['c2', 750], ['c3', 1000]]);
    const refused = refusalOf(() => resolveMathChannels(file, ['c3', 'c999'], defs, (i) => `channels[${i}]`));
    const reason = 'math channel c999 reads more than 1024 distinct parameters with param(), through the definitions it reads (MAX_MATH_PARAMS is 1024)';
    expect({ status: refused.status, errors: refused.errors }).toEqual({ status: 422, errors: { 'channels[1]': [reason] } });
  });

  test('when the bound is lower, then a channel reading more through a chain is refused and left out, and what each plan holds is never more than the bound', () => {
    const defs = paramChain(200, 3);
    const listed = mathCatalogue(file, defs, 7);
    expect(listed.map((c) => c.name)).toEqual(['c0', 'c1']);
    expect(listed.map((c) => [...(c.params ?? [])])).toEqual([['P0', 'P1', 'P2'], ['P3', 'P4', 'P5', 'P0', 'P1', 'P2']]);
    expect(refusalOf(() => resolveMathChannels(file, ['c2'], defs, () => 'channel', '', 7)).errors).toEqual({ channel: ['math channel c2 reads more than 7 distinct parameters with param(), through the definitions it reads (MAX_MATH_PARAMS is 7)'] });
    // One reading several through diamonds counts each name once.
    const diamond = definitions([
      ['a', 'Speed * param("A") * param("B")'],
      ['b', 'a * param("A") + a'],
      ['c', 'b + a * param("B") + param("C")'],
    ]);
    expect([...(resolveMathChannels(file, ['c'], diamond, () => 'channel', '', 3).get('c')?.math.params ?? [])]).toEqual(['B', 'C', 'A']);
  });
});
