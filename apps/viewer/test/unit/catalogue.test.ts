import type { DatasetRef } from '../../src/api';
import { catalogueChanges, catalogueChangesText, catalogueSearchDelay, channelCount, comparisonLabel, constantsOf, datasetsOf, enteredCars, formatLapTime, groupChannelsByUnit, holderName, lapRows, parametersText, parametersTitle, uploadingCount, uploadingText, type CatalogueChannel } from '../../src/catalogue';

const attachment = (id: string, FileName: string, AttachedFileGroupName: string | null, ServerAttachedFileState: number) => ({ Id: id, Parameters: { FileName, AttachedFileGroupName, ServerAttachedFileState }, SignedURL: null });

describe('datasetsOf', () => {
  test('when a run sheet has files in several states and groups, then only available files (state 2) make datasets, one per group, in first-file order', () => {
    const run = { Id: 'r1', Parameters: { Name: 'Run 3' } };
    const datasets = datasetsOf('RunSheets', run, [
      attachment('a', 'stint.ld', 'Stint', 2),
      attachment('b', 'stint.ldx', 'Stint', 2),
      attachment('c', 'pending.ld', 'Pending', 1),
      attachment('d', 'loose.pdf', null, 2),
      attachment('e', 'lap1.csv', 'Laps', 2),
    ]);
    expect(datasets).toEqual([
      { entityType: 'RunSheets', entityId: 'r1', group: 'Stint', name: 'Run 3 / Stint', label: 'Run 3 / Stint (stint.ld, stint.ldx)' },
      { entityType: 'RunSheets', entityId: 'r1', group: 'Laps', name: 'Run 3 / Laps', label: 'Run 3 / Laps (lap1.csv)' },
    ]);
  });
});

describe('uploadingCount', () => {
  test('when files are prepared, uploading and available, then those below state 2 are counted, and said in the singular or plural', () => {
    const files = [attachment('a', 'a.ld', 'Stint', 0), attachment('b', 'b.ld', 'Stint', 1), attachment('c', 'c.ld', 'Stint', 2), attachment('d', 'd.ld', null, 1)];
    expect(uploadingCount(files)).toBe(3);
    expect(uploadingCount([])).toBe(0);
    expect(uploadingText(0)).toBe('');
    expect(uploadingText(1)).toBe('1 file still uploading: Refresh lists it once available.');
    expect(uploadingText(3)).toBe('3 files still uploading: Refresh lists them once available.');
  });
});

describe('comparisonLabel', () => {
  test('when the run sheet\'s and the group\'s names hold " (", then the lap is named by both in full, with its number from 1 and its time', () => {
    const [dataset] = datasetsOf('RunSheets', { Id: 'r2', Parameters: { Name: 'Run 2 (copy)' } }, [attachment('a', 'stint.ld', 'Data (wet)', 2)]);
    expect(comparisonLabel(dataset as DatasetRef, { lapIndex: 2, lapTime: 63 })).toBe('Run 2 (copy) / Data (wet) lap 3 (1:03.000)');
  });
});

describe('enteredCars', () => {
  test('when an event has entries, then each is offered by its car id under the car name, with the entry name when it differs', () => {
    const cars = [{ Id: 'c7', Parameters: { Name: 'Car 7' } }, { Id: 'c8', Parameters: { Name: 'Car 8' } }];
    const entries = [{ Id: 'e1', Parameters: { Name: 'Car 7', CarId: 'c7' } }, { Id: 'e2', Parameters: { Name: 'Spare', CarId: 'c8' } }, { Id: 'e3', Parameters: { Name: 'broken', CarId: null } }];
    expect(enteredCars(entries, cars)).toEqual([
      { value: 'c7', label: 'Car 7' },
      { value: 'c8', label: 'Car 8 (Spare)' },
    ]);
  });
});

describe('lapRows', () => {
  test('when laps are 100, 62.5, 61.25, 63 and 90 s from a file starting at 10 s, then each starts after the ones before it and the fastest flying lap (the 3rd) is best', () => {
    const rows = lapRows({ startTime: 10, lapElapsedTimes: [100, 62.5, 61.25, 63, 90] });
    expect(rows.map((r) => r.start)).toEqual([10, 110, 172.5, 233.75, 296.75]);
    expect(rows.filter((r) => r.best).map((r) => r.lapIndex)).toEqual([2]);
  });

  test('when the out lap is the shortest, then it is not the best lap; with two laps or fewer every lap counts', () => {
    expect(lapRows({ startTime: 0, lapElapsedTimes: [30, 65, 64, 90] }).find((r) => r.best)?.lapIndex).toBe(2);
    expect(lapRows({ startTime: 0, lapElapsedTimes: [70, 65] }).find((r) => r.best)?.lapIndex).toBe(1);
    expect(lapRows({ startTime: 0, lapElapsedTimes: [] })).toEqual([]);
  });

  test('when laps are listed, then the first is the out lap and the last of two or more the in lap, as the lap statistics say', () => {
    expect(lapRows({ startTime: 0, lapElapsedTimes: [30, 65, 64, 90] }).map((r) => r.kind)).toEqual(['out', 'flying', 'flying', 'in']);
    expect(lapRows({ startTime: 0, lapElapsedTimes: [70, 65] }).map((r) => r.kind)).toEqual(['out', 'in']);
    expect(lapRows({ startTime: 0, lapElapsedTimes: [70] }).map((r) => r.kind)).toEqual(['out']);
  });
});

test('formatLapTime: 63 s is 1:03.000, 125.4567 s is 2:05.457, 9.5 s is 0:09.500', () => {
  expect(formatLapTime(63)).toBe('1:03.000');
  expect(formatLapTime(125.4567)).toBe('2:05.457');
  expect(formatLapTime(9.5)).toBe('0:09.500');
  expect(formatLapTime(NaN)).toBe('-');
});

describe('groupChannelsByUnit', () => {
  const channel = (name: string, unit: string): CatalogueChannel => ({ name, unit, frequency: 20, sampleCount: 100, dimension: 1, dataType: 'int16' });
  const catalogue = [channel('Wheel Speed FL', 'km/h'), channel('Ground Speed', 'km/h'), channel('Gear', ''), channel('Brake Temp FL', 'C'), channel('Engine RPM', 'rpm')];

  test('when there is no search, then channels are grouped by unit, units sorted with "no unit" last, names sorted', () => {
    expect(groupChannelsByUnit(catalogue).map((g) => [g.unit, g.channels.map((c) => c.name)])).toEqual([
      ['C', ['Brake Temp FL']],
      ['km/h', ['Ground Speed', 'Wheel Speed FL']],
      ['rpm', ['Engine RPM']],
      ['', ['Gear']],
    ]);
  });

  test('when searching, then a channel stays when its name or unit holds every word, whatever the case', () => {
    expect(groupChannelsByUnit(catalogue, 'speed').flatMap((g) => g.channels.map((c) => c.name))).toEqual(['Ground Speed', 'Wheel Speed FL']);
    expect(groupChannelsByUnit(catalogue, 'FL km/h').flatMap((g) => g.channels.map((c) => c.name))).toEqual(['Wheel Speed FL']);
    expect(groupChannelsByUnit(catalogue, 'RPM').map((g) => g.unit)).toEqual(['rpm']);
    expect(groupChannelsByUnit(catalogue, 'nothing like this')).toEqual([]);
  });

  test('when the catalogue has math channels (group Math), then they come last in a group of their own, searched alike', () => {
    const math = (name: string, unit: string): CatalogueChannel => ({ ...channel(name, unit), dataType: 'float64', group: 'Math', expression: '1' });
    const groups = groupChannelsByUnit([...catalogue, math('Speed ms', 'm/s'), math('Power', 'km/h')]);
    expect(groups.map((g) => [g.math ?? false, g.unit, g.channels.map((c) => c.name)])).toEqual([
      [false, 'C', ['Brake Temp FL']],
      [false, 'km/h', ['Ground Speed', 'Wheel Speed FL']],
      [false, 'rpm', ['Engine RPM']],
      [false, '', ['Gear']],
      [true, '', ['Power', 'Speed ms']],
    ]);
    expect(groupChannelsByUnit([...catalogue, math('Speed ms', 'm/s')], 'ms').map((g) => g.math ?? false)).toEqual([true]);
  });

  test("when the metadata lists the account's math channels beside the file's, then the count says each apart, not their sum", () => {
    const math = (name: string): CatalogueChannel => ({ ...channel(name, 'm/s'), dataType: 'float64', group: 'Math', expression: '1' });
    expect(channelCount([...catalogue, math('Speed ms'), math('Power')])).toBe(`${catalogue.length} in the file, 2 math (the account's)`);
    expect(channelCount(catalogue)).toBe(`${catalogue.length} in the file`);
  });

  test('when the file has text, byte or array channels, which the channel list does not offer, then the count says how many are not plottable', () => {
    const text: CatalogueChannel = { ...channel('Driver message', ''), kind: 'text' };
    const array: CatalogueChannel = { ...channel('Tyre temps', 'C'), dimension: 4 };
    const all = [...catalogue, text, array];
    expect(channelCount(all)).toBe(`${all.length} in the file, 2 not plottable (text, bytes or arrays)`);
    const listed = groupChannelsByUnit(all).flatMap((g) => g.channels.map((c) => c.name));
    expect(listed).toHaveLength(all.length - 2);
  });
});

describe('constantsOf', () => {
  const channel = (name: string, unit: string): CatalogueChannel => ({ name, unit, frequency: 20, sampleCount: 100, dimension: 1, dataType: 'float64' });

  test('when math channels read constants, then each constant is listed once by name with its value, holder and the channels reading it; logged channels read none', () => {
    const math = (name: string, parameters: { name: string; value: number; from: string }[]): CatalogueChannel => ({ ...channel(name, 'km/h'), group: 'Math', expression: 'x', parameters });
    const catalogue = [channel('Ground Speed', 'km/h'), math('Speed corrected', [{ name: 'SpeedFactor', value: 1.02, from: 'Cars c7' }]), math('Sum', [{ name: 'P1', value: 1, from: 'RunSheets r1' }, { name: 'SpeedFactor', value: 1.02, from: 'Cars c7' }])];
    expect(constantsOf(catalogue)).toEqual([
      { name: 'P1', value: 1, from: 'RunSheets r1', channels: ['Sum'] },
      { name: 'SpeedFactor', value: 1.02, from: 'Cars c7', channels: ['Speed corrected', 'Sum'] },
    ]);
    expect(constantsOf([channel('Ground Speed', 'km/h')])).toEqual([]);
  });
});

describe("a math channel's constants (param()) as the channel list says them", () => {
  const names = new Map([['Cars c7', 'Cars Car 7']]);
  const nameOf = (from: string) => names.get(from) ?? from;
  const used = (name: string, value: number, from = 'Cars c7') => ({ name, value, from });

  test('when a math channel reads a constant, then its name, value and the entity holding it are said, named when the page knows it, else by its id', () => {
    expect(parametersText([used('SteeringRatio', 12)], nameOf)).toBe('param SteeringRatio = 12 (Cars Car 7)');
    expect(parametersText([used('RollingRadius', 0.3171, 'Setups s1')], nameOf)).toBe('param RollingRadius = 0.3171 (Setups s1)');
    // A value with binary noise is shown to 12 significant digits, not its float's 17.
    expect(parametersText([used('Ratio', 0.1 + 0.2)], nameOf)).toBe('param Ratio = 0.3 (Cars Car 7)');
  });

  test('when it reads many, then three are said and the others counted; the tooltip names up to twenty', () => {
    const many = Array.from({ length: 25 }, (_, i) => used(`P${i}`, i));
    expect(parametersText(many.slice(0, 3), nameOf)).toBe('param P0 = 0 (Cars Car 7); param P1 = 1 (Cars Car 7); param P2 = 2 (Cars Car 7)');
    expect(parametersText(many.slice(0, 5), nameOf)).toBe('param P0 = 0 (Cars Car 7); param P1 = 1 (Cars Car 7); param P2 = 2 (Cars Car 7); and 2 more');
    const title = parametersTitle(many, nameOf);
    expect(title.split('; param ')).toHaveLength(20);
    expect(title.endsWith('param P19 = 19 (Cars Car 7); and 5 more')).toBe(true);
  });

  test("when the holder's name is long, then it is cut to 40 characters with an ellipsis; without a name, the service's words stay", () => {
    expect(holderName('Cars c7', 'Car 7')).toBe('Cars Car 7');
    expect(holderName('Setups s1', 'x'.repeat(200))).toBe(`Setups ${'x'.repeat(39)}…`);
    expect(holderName('Cars c7', undefined)).toBe('Cars c7');
    expect(holderName('Cars c7', '')).toBe('Cars c7');
  });
});

describe('catalogueChanges and catalogueChangesText: what Refresh says changed in the open dataset\'s catalogue', () => {
  const math = (name: string, expression = '1', parameters?: { name: string; value: number; from: string }[]): CatalogueChannel => ({ name, unit: 'km/h', frequency: 20, sampleCount: 100, dimension: 1, dataType: 'float64', group: 'Math', expression, ...(parameters ? { parameters } : {}) });
  const logged: CatalogueChannel = { name: 'Ground Speed', unit: 'km/h', frequency: 20, sampleCount: 100, dimension: 1, dataType: 'int16' };

  test('when math channels were created, deleted, redefined or read other constants, then each is named, by name, and a ticked one gone is said unticked', () => {
    const before = [logged, math('Speed old'), math('Speed x2', '"Ground Speed" * 2'), math('Steer', '"Steered" / param("R")', [{ name: 'R', value: 12, from: 'Cars c7' }]), math('Same')];
    const after = [logged, math('Speed x2', '"Ground Speed" * 3'), math('Steer', '"Steered" / param("R")', [{ name: 'R', value: 14, from: 'Cars c7' }]), math('Same'), math('Brake bias'), math('Aero')];
    const changes = catalogueChanges(before, after);
    expect(changes).toEqual({ added: ['Aero', 'Brake bias'], removed: ['Speed old'], changed: ['Speed x2', 'Steer'] });
    expect(catalogueChangesText(changes, ['Speed old'])).toBe('the open dataset\'s channels read again: added "Aero", "Brake bias"; gone "Speed old" ("Speed old" unticked); changed "Speed x2", "Steer" (definition or constants)');
    expect(catalogueChangesText(changes, [])).toBe('the open dataset\'s channels read again: added "Aero", "Brake bias"; gone "Speed old"; changed "Speed x2", "Steer" (definition or constants)');
  });

  test('when nothing changed, then it says so; many names are cut to five and counted', () => {
    expect(catalogueChangesText(catalogueChanges([logged, math('A')], [logged, math('A')]), [])).toBe('the open dataset\'s channels read again: no change');
    const added = Array.from({ length: 8 }, (_, i) => math(`M${i}`));
    expect(catalogueChangesText(catalogueChanges([logged], [logged, ...added]), [])).toBe('the open dataset\'s channels read again: added "M0", "M1", "M2", "M3", "M4" and 3 more');
  });
});

describe('catalogueSearchDelay', () => {
  test('when the catalogue has up to 2,000 channels, then a keystroke rebuilds it at once; past that, once typing pauses 150 ms', () => {
    expect([0, 78, 2000, 2001, 21_000].map(catalogueSearchDelay)).toEqual([0, 0, 0, 150, 150]);
  });
});
