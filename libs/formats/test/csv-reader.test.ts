import { CorruptDataFileError, DataFileLimitError, NotADataFileError, openDataFile } from '../src';
import { readFixture, sha256, SHA256 } from './fixtures';
import { MAX_KEPT_NAME_CHARS } from '../src/model';

describe('CSV reader', () => {
  describe('generic layout (csv_sample.csv, irregular)', () => {
    const bytes = readFixture('csv_sample.csv');
    const file = openDataFile(bytes);
    // Independent parse: split the text naively (the fixture has no quotes).
    const rows = Buffer.from(bytes).toString('latin1').split('\n').map((l) => l.trim().split(','));
    const header = rows[0];
    const data = rows.slice(1).filter((r) => r.length > 1);

    it('when the fixture is read, then it is the documented file', () => {
      expect(sha256(bytes)).toBe(SHA256['csv_sample.csv']);
    });

    it('when opened, then 18,033 rows over 1352.76 s and one channel per non-time column', () => {
      expect(file.format).toBe('csv');
      expect(data).toHaveLength(18033);
      // From the first row to one mean period (1352.76 s over 18,032 steps) past the last: the whole-file window holds every row.
      expect(file.duration).toBeCloseTo(1352.76 + 1352.76 / 18032, 9);
      expect(file.channels.map((c) => c.name)).toEqual(header.slice(1));
      for (const c of file.channels) expect(c).toMatchObject({ sampleCount: 18033, regular: false });
      expect(file.laps).toEqual([]);
    });

    it.each(['RPM', 'Boost', 'Vehicle Speed', 'Coolant Temp'])('when %s is read, then first, last and sampled values equal the text', (name) => {
      const column = header.indexOf(name);
      const channel = file.readChannel(name);
      expect(channel.time.kind).toBe('explicit');
      expect(channel.samples[0]).toBe(Number(data[0][column]));
      expect(channel.samples[18032]).toBe(Number(data[18032][column]));
      for (let i = 0; i < data.length; i += 97) expect(channel.samples[i]).toBe(Number(data[i][column]));
      if (channel.time.kind === 'explicit') {
        expect(channel.time.timestamps[0]).toBe(Number(data[0][0]));
        expect(channel.time.timestamps[18032]).toBe(Number(data[18032][0]));
      }
    });
  });

  describe('MoTeC CSV export', () => {
    const motec = [
      '"Format","MoTeC CSV File",,,"Workbook","Demo"',
      '"Venue","Calder",,,"Worksheet","Lap"',
      '"Vehicle","11A",,,"Vehicle Desc",""',
      '"Driver","A. Driver",,,"Engine ID",""',
      '"Device","ADL"',
      '"Comment","test day"',
      '"Log Date","23/11/2005",,,"Origin Time","0.000","s"',
      '"Log Time","09:53:00",,,"Start Time","0.000","s"',
      '"Sample Rate","10.000",,,"End Time","3.000","s"',
      '"Duration","3.000"',
      '"Beacon Markers","1.000","2.000"',
      '',
      '"Time","Ground Speed","Engine RPM"',
      '"s","km/h","rpm"',
      '',
      ...Array.from({ length: 30 }, (_, i) => `"${(i / 10).toFixed(3)}","${(100 + i).toFixed(1)}","${i % 3 === 0 ? '' : 5000 + i}"`),
    ].join('\r\n');
    const file = openDataFile(new TextEncoder().encode(motec));

    it('when opened, then preamble properties, units, a regular 10 Hz time base and Beacon Markers laps', () => {
      expect(file.format).toBe('motec-csv');
      expect(file.properties).toMatchObject({ venueName: 'Calder', carId: '11A', driverName: 'A. Driver', outingTime: '2005-11-23T09:53:00' });
      expect(file.channels).toEqual([
        expect.objectContaining({ name: 'Ground Speed', unit: 'km/h', frequency: 10, regular: true, sampleCount: 30 }),
        expect.objectContaining({ name: 'Engine RPM', unit: 'rpm' }),
      ]);
      expect(file.duration).toBe(3);
      expect(file.laps.map((l) => [l.startTime, l.endTime, l.kind])).toEqual([
        [0, 1, 'out'],
        [1, 2, 'flying'],
        [2, 3, 'in'],
      ]);
    });

    it('when a column has empty cells, then those samples are gaps (NaN with gap flag 1)', () => {
      const rpm = file.readChannel('Engine RPM');
      expect(rpm.time).toEqual({ kind: 'implicit', start: 0, frequency: 10 });
      expect(rpm.gaps?.[0]).toBe(1);
      expect(rpm.samples[0]).toBeNaN();
      expect(rpm.gaps?.[1]).toBe(0);
      expect(rpm.samples[1]).toBe(5001);
      expect(file.readChannel('Ground Speed').samples[29]).toBe(129);
    });
  });

  it('when a value is past float64 range (1e999, -1e999), then it is a gap as an empty cell is, not an infinity', () => {
    const file = openDataFile(new TextEncoder().encode('Time,V\n0,1\n0.1,1e999\n0.2,5\n0.3,-1e999\n0.4,-2\n'));
    const v = file.readChannel('V');
    expect(Array.from(v.samples)).toEqual([1, NaN, 5, NaN, -2]);
    expect(Array.from(v.gaps ?? [])).toEqual([0, 1, 0, 1, 0]);
  });

  it('when a header carries units in brackets and times are in ms, then units are split off and times become seconds', () => {
    const file = openDataFile(new TextEncoder().encode('Time [ms];Speed [km/h]\n0;10\n250;11\n500;12\n'));
    expect(file.channels[0]).toMatchObject({ name: 'Speed', unit: 'km/h', frequency: 4, regular: true });
    expect(file.duration).toBe(0.75);
  });

  it('when the time column\'s unit is named like an object\'s own member ([constructor], [__proto__]), then the times are read as seconds', () => {
    for (const unit of ['constructor', '__proto__', 'toString']) {
      const file = openDataFile(new TextEncoder().encode(`Time [${unit}],V\n0,1\n0.5,2\n1,3\n`));
      expect([file.duration, file.readChannel('V').samples.length]).toEqual([1.5, 3]);
    }
  });

  it('when irregular times are in ms, then each is its seconds to the nanosecond (45.7 ms is 0.0457 s, not 0.045700000000000005)', () => {
    const file = openDataFile(new TextEncoder().encode('Time [ms],V\n0,1\n45.7,2\n97.3,3\n333.3,4\n1234.9,5\n'));
    const time = file.readChannel('V').time;
    expect(time.kind === 'explicit' && Array.from(time.timestamps)).toEqual([0, 0.0457, 0.0973, 0.3333, 1.2349]);
  });

  it.each([
    ['UTF-8 with a BOM', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('Time [µs],Temp (°C),Schräglauf\n0,20,1\n100000,21,2\n200000,22,3\n', 'utf8')])],
    ['UTF-8', Buffer.from('Time [μs],Temp (°C),Schräglauf\n0,20,1\n100000,21,2\n200000,22,3\n', 'utf8')],
    ['Latin-1', Buffer.from('Time [µs],Temp (°C),Schräglauf\n0,20,1\n100000,21,2\n200000,22,3\n', 'latin1')],
  ])('when names and units are written in %s, then they read as written and µs times become seconds', (_encoding, bytes) => {
    const file = openDataFile(new Uint8Array(bytes));
    expect(file.channels.map((c) => [c.name, c.unit])).toEqual([
      ['Temp', '°C'],
      ['Schräglauf', ''],
    ]);
    expect([file.duration, file.channels[0]?.frequency]).toEqual([0.3, 10]);
  });

  it.each([
    ['1e300', '0,1\n1e300,2\n', 2],
    ['-1e300', '-1e300,1\n1e300,2\n', 1],
    ['1e19', '0,1\n1e19,2\n', 2],
  ])('when a time is %s, farther from 0 than 1e15 s, then the file is refused as corrupt naming the row (its times would print as null)', (_, rows, row) => {
    expect(() => openDataFile(new TextEncoder().encode(`Time,A\n${rows}`))).toThrow(new RegExp(`time in data row ${row} \\(.* s\\) is farther from 0 than 1000000000000000 s`));
    // An epoch time in seconds is far inside it.
    expect(openDataFile(new TextEncoder().encode('Time,A\n1764000000,1\n1764000001,2\n')).duration).toBe(2);
  });

  it.each([
    ['semicolons', ';'],
    ['tabs', '\t'],
  ])('when a file separated by %s writes decimal commas (a spreadsheet in a German or French locale), then they are decimals, the time column too', (_, d) => {
    const text = [`Zeit [s]${d}Drehzahl [1/min]${d}Druck [bar]`, `0,00${d}1500${d}1,5`, `0,01${d}1510${d}-2,25`, `0,02${d}1520${d}`, `0,03${d}1530${d}3,125e1`].join('\n');
    const file = openDataFile(new TextEncoder().encode(text));
    expect(file.channels.map((c) => [c.name, c.unit, c.frequency])).toEqual([
      ['Drehzahl', '1/min', 100],
      ['Druck', 'bar', 100],
    ]);
    expect(file.duration).toBeCloseTo(0.04, 12);
    expect(Array.from(file.readChannel('Druck').samples)).toEqual([1.5, -2.25, NaN, 31.25]);
    expect(Array.from(file.readChannel('Drehzahl').samples)).toEqual([1500, 1510, 1520, 1530]);
    // The time column is found by its word in those locales too.
    for (const word of ['Temps', 'Tiempo', 'Tempo', 'zeit']) expect(openDataFile(new TextEncoder().encode(text.replace('Zeit', word))).duration).toBeCloseTo(0.04, 12);
  });

  it('when a semicolon file writes decimal points, or mixes a point in, then points are the decimals and a comma is no number (a gap)', () => {
    const file = openDataFile(new TextEncoder().encode('Time;A\n0;1.5\n0.1;2,5\n0.2;3\n'));
    expect(Array.from(file.readChannel('A').samples)).toEqual([1.5, NaN, 3]);
    // A comma-separated file never reads a comma as a decimal: it is the delimiter.
    expect(Array.from(openDataFile(new TextEncoder().encode('Time,A\n0,"1,5"\n1,2\n')).readChannel('A').samples)).toEqual([NaN, 2]);
  });

  it('when times are in ns, then they become seconds', () => {
    const file = openDataFile(new TextEncoder().encode('Time [ns],A\n0,1\n500000000,2\n1000000000,3\n'));
    expect([file.duration, file.channels[0]?.frequency]).toEqual([1.5, 2]);
  });

  // A file is anyone's upload: a header field or a cell as long as its writer makes it is read in time linear in its
  // length. Each input here took the patterns the reader used before minutes or hours (measured on the pattern alone;
  // a hang fails the test at its timeout), and answers as those patterns did.
  describe('hostile header fields and cells', () => {
    const encode = (text: string) => new TextEncoder().encode(text);

    /** `head`, then `fields` empty fields of one byte each and a newline, then `tail`: a line of millions of fields without a string of it. */
    function wide(head: string, fields: number, tail: string): Uint8Array {
      const start = Buffer.from(head);
      const end = Buffer.from(`\n${tail}`);
      const bytes = Buffer.alloc(start.length + fields + end.length, 0x2c);
      start.copy(bytes, 0);
      end.copy(bytes, start.length + fields);
      return bytes;
    }

    it('when a header has 20 million fields (a 20 MB line), then it is refused for its channels before it is split, and a file of as many channels as the bound allows opens', () => {
      expect(() => openDataFile(wide('Time,a', 20_000_000, '0,1\n'))).toThrow(new DataFileLimitError('csv', 'channels', 20_000, 20_001));
      expect(() => openDataFile(encode('Time,A,B,C\n0,1,2,3\n'), { maxChannels: 2 })).toThrow('csv has more than 2 channels; at most 2 are read');
      expect(openDataFile(encode('Time,A,B\n0,1,2\n'), { maxChannels: 2 }).channels.map((c) => c.name)).toEqual(['A', 'B']);
    });

    it('when a MoTeC CSV preamble row or its units row has 20 million fields, then it is refused for its channels before it is split', () => {
      expect(() => openDataFile(wide('Format,MoTeC CSV File\nVenue', 20_000_000, 'Time,A\n'))).toThrow(new DataFileLimitError('motec-csv', 'channels', 20_000, 20_001));
      expect(() => openDataFile(wide('Format,MoTeC CSV File\nTime,A\ns', 20_000_000, '0,1\n'))).toThrow(new DataFileLimitError('motec-csv', 'channels', 20_000, 20_001));
    });

    it('when the row after the header has 20 million fields, then it is no unit row: the file opens with its header\'s channels', () => {
      const file = openDataFile(wide('Time,A\n0', 20_000_000, '1,2\n'));
      expect(file.channels.map((c) => [c.name, c.unit])).toEqual([['A', '']]);
    });

    it('when a header field before the Time column is an unclosed bracket of 20,000 spaces, then it is a channel with no unit, named as written up to the longest name a read can ask for', () => {
      const field = `t(${' '.repeat(20_000)}x`;
      const file = openDataFile(encode(`${field},Time\n0,1\n`));
      const name = field.slice(0, MAX_KEPT_NAME_CHARS);
      expect(file.channels.map((c) => [c.name, c.unit])).toEqual([[name, '']]);
      expect(Array.from(file.readChannel(name).samples)).toEqual([0]);
    });

    it('when the only time-like field is `Time [` and 20,000 spaces never closed, then it is no time column and the file is not a data file', () => {
      expect(() => openDataFile(encode(`Time [${' '.repeat(20_000)}s,A\n0,1\n`))).toThrow(NotADataFileError);
      // Closed, the same spaces are trimmed from the unit.
      const closed = openDataFile(encode(`Time [${' '.repeat(20_000)}ms${' '.repeat(20_000)}],A\n0,1\n500,2\n`));
      expect([closed.duration, closed.channels[0]?.frequency]).toEqual([1, 2]);
    });

    it('when a header field is a name and 400,000 `(`, then it is a channel with no unit named as written (up to the longest name a read can ask for); closed by `]`, the name and the `(`s as its unit', () => {
      const field = `a${'('.repeat(400_000)}`;
      expect(openDataFile(encode(`Time,${field}\n0,1\n`)).channels.map((c) => [c.name, c.unit])).toEqual([[field.slice(0, MAX_KEPT_NAME_CHARS), '']]);
      expect(openDataFile(encode(`Time,${field}]\n0,1\n`)).channels.map((c) => [c.name, c.unit])).toEqual([['a', '('.repeat(399_999)]]);
    });

    it('when a cell is 400,000 digits and a letter, then it is no number: a gap', () => {
      const file = openDataFile(encode(`Time,Speed\n0,1\n1,${'1'.repeat(400_000)}x\n2,3\n`));
      const speed = file.readChannel('Speed');
      expect(Array.from(speed.samples)).toEqual([1, NaN, 3]);
      expect(Array.from(speed.gaps ?? [])).toEqual([0, 1, 0]);
    });

    it('when a time cell is 400,000 digits and a letter, then in a data row the file is refused as corrupt naming the row, and in the second row it is the unit row', () => {
      const digits = '1'.repeat(400_000);
      expect(() => openDataFile(encode(`Time,A\n0,1\n${digits}x,2\n`))).toThrow(new CorruptDataFileError('csv', 'time in data row 2 is missing or goes backwards', 'Time,A\n0,1\n'.length));
      const file = openDataFile(encode(`Time,A\n${digits}x,V\n0,2\n`));
      expect(file.channels.map((c) => [c.name, c.unit, c.sampleCount])).toEqual([['A', 'V', 1]]);
    });
  });
});
