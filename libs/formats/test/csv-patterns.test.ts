import { seededRandom } from '@pitwall/random';
import { timeHeader, unitInName } from '../src/csv/csv-header';
import { NUMBER_TEXT } from '../src/csv/csv-text';

// The patterns the CSV reader used before (super-linear on hostile fields: see csv-reader.test.ts "hostile header
// fields and cells"), kept here only as the reference of what the reader's header and number matching mean.
const OLD_TIME_HEADER = /^(time|timestamp|t|zeit|temps|tiempo|tempo)\s*(?:[[(]\s*([^\])]*?)\s*[\])])?$/i;
const OLD_UNIT_IN_NAME = /^(.*?)\s*[[(]\s*([^\])]*?)\s*[\])]$/;
const OLD_NUMBER_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

const groups = (pattern: RegExp, text: string) => pattern.exec(text)?.slice(1) ?? null;
/** Both no match, or the same groups (undefined for a group that took no part). */
const same = (a: readonly unknown[] | null, b: readonly unknown[] | null) => a === b || (a !== null && b !== null && a.length === b.length && a.every((x, i) => x === b[i]));

const headers = [
  '', ' ', 'Time', 'time', 'TIME', 'tImE', 'Timestamp', 'timestamp', 't', 'T', 'Zeit', 'zeit', 'Temps', 'Tiempo', 'Tempo', 'tempo',
  'Time [s]', 'Time[s]', 'Time [ms]', 'Time (us)', 'Time (µs)', 'Time [μs]', 'Time [ns]', 'Zeit [s]', 't (s)', 'Timestamp [ms]',
  'Time  (  ms  )', 'Time\t[\ts\t]', 'Time\n[s]', 'Time [ ]', 'Time []', 'Time ()', 'Time [s)', 'Time (s]', 'Time [s', 'Time s]',
  'Time [[s]', 'Time [(s]', 'Time [s]]', 'Time [s] ', ' Time', 'Time ', 'Time  ', 'Times', 'tim', 'Time s', 'Time [s] x', 'Time [s]\n',
  'Time [a b]', 'Time\u00a0[\u00a0ms\u00a0]', 'Time\u2028[s]', 'Time\ufeff(s)', 'tt', 'time(', 'time)', 'Time [s]]',
  'Speed [km/h]', 'Speed[km/h]', 'Temp (°C)', 'Drehzahl [1/min]', 'Druck [bar]', 'Schräglauf', 'RPM', 'Vehicle Speed',
  'a [b [c]', 'a (b) [c]', 'a [b] c', 'a [b]c]', 'a (b (c))', 'a (b (c)', 'a [ b c ]', 'a []', 'a ( )', '[s]', '(s)', ' [s]', '[]', '()',
  ']', ')', '[', '(', '[[', '))', 'a\n[s]', 'a\nb [s]', 'a\r\nb [s]', 'a\rb (s)', 'a\u2028b (s)', 'a\u2029 (s)', 'a \n (s)', 'a\t(s)',
  'a\u00a0[\u00a0b\u00a0]', 'a\ufeff(b)', 'a\u3000(\u3000b\u3000)', 'a\u200b(b)', 'Lap', 'Lap number', 'Beacon (s)',
];

const numbers = [
  '', '0', '1', '-1', '+1', '1.', '-1.', '.5', '-.5', '+.5', '+.5e3', '1.5', '-1.5', '1.50', '007', '1e5', '1E5', '1e+5', '1e-5', '-1.5e-7',
  '1.e5', '.5e5', '.e5', '.', '-', '+', '-.', 'e5', '1e', '1e+', '1e-', '1e+-5', '1.5.5', '1..5', '1,5', '1.5,5', ' 1', '1 ', '1 .5',
  '0x10', '0b1', '0o7', 'Infinity', '-Infinity', 'NaN', '1_000', '١٢', '１', '--1', '+-1', '-+1', '1e5.5', '1ee5', '1e5e5', '1E-0',
  '1e999', '-1e999', '12345678901234567890', '1234567890123456.5', '0.1234567890123456789', '1\n', '\n1', '1x', 'x1',
];

describe('the CSV reader\'s header and number patterns', () => {
  it.each(headers.map((h) => [JSON.stringify(h), h]))('when the header field %s is read, then unitInName and timeHeader give the old patterns\' groups', (_, field) => {
    expect(unitInName(field)).toEqual(groups(OLD_UNIT_IN_NAME, field));
    expect(timeHeader(field)).toEqual(groups(OLD_TIME_HEADER, field));
  });

  it('when random header fields of words, spaces, line breaks and brackets are read, then unitInName and timeHeader give the old patterns\' groups', () => {
    const random = seededRandom(17);
    const pieces = ['Time', 'time', 't', 'T', 'Zeit', 'stamp', 'TEMPS', 'a', 'km/h', 'µs', ' ', '  ', '\t', '\n', '\r', '\u00a0', '\u2028', '[', ']', '(', ')', '[s]', '(ms)', 'x'];
    const differ: unknown[] = [];
    let [units, times] = [0, 0];
    for (let round = 0; round < 20_000; round++) {
      const field = Array.from({ length: Math.floor(random() * 10) }, () => pieces[Math.floor(random() * pieces.length)]).join('');
      const [unit, oldUnit] = [unitInName(field), groups(OLD_UNIT_IN_NAME, field)];
      const [time, oldTime] = [timeHeader(field), groups(OLD_TIME_HEADER, field)];
      if (!same(unit, oldUnit) || !same(time, oldTime)) differ.push({ field, unit, oldUnit, time, oldTime });
      if (oldUnit) units++;
      if (oldTime) times++;
    }
    expect(differ).toEqual([]);
    // The fields are not all refused: over a thousand have a unit, hundreds are time headers.
    expect(units).toBeGreaterThan(1000);
    expect(times).toBeGreaterThan(500);
  });

  it('when every UTF-16 code unit stands as the spaces, the name, the unit and the time word\'s letter, then unitInName and timeHeader give the old patterns\' groups', () => {
    const differ: string[] = [];
    for (let code = 0; code <= 0xffff; code++) {
      const c = String.fromCharCode(code);
      for (const field of [c, `a${c}`, `a${c}(${c}b${c})`, `${c}[${c}]`, `${c}${c}(s)`, `Time${c}[${c}ms${c}]`, `Time${c}`, `${c}ime (s)`, `t${c}`]) {
        if (!same(unitInName(field), groups(OLD_UNIT_IN_NAME, field))) differ.push(`unitInName ${JSON.stringify(field)}`);
        if (!same(timeHeader(field), groups(OLD_TIME_HEADER, field))) differ.push(`timeHeader ${JSON.stringify(field)}`);
      }
    }
    expect(differ).toEqual([]);
  });

  it.each(numbers.map((n) => [JSON.stringify(n), n]))('when the number text %s is matched, then NUMBER_TEXT gives the old pattern\'s groups', (_, text) => {
    expect(groups(NUMBER_TEXT, text)).toEqual(groups(OLD_NUMBER_TEXT, text));
  });

  it('when random texts of digits, points, signs, exponents and stray characters are matched, then NUMBER_TEXT gives the old pattern\'s groups', () => {
    const random = seededRandom(23);
    const pieces = ['0', '1', '23', '456', '.', ',', 'e', 'E', '+', '-', ' ', 'x', '\n'];
    const differ: unknown[] = [];
    let numbers = 0;
    for (let round = 0; round < 20_000; round++) {
      const text = Array.from({ length: Math.floor(random() * 10) }, () => pieces[Math.floor(random() * pieces.length)]).join('');
      const [found, old] = [groups(NUMBER_TEXT, text), groups(OLD_NUMBER_TEXT, text)];
      if (!same(found, old)) differ.push({ text, found, old });
      if (old) numbers++;
    }
    expect(differ).toEqual([]);
    // The texts are not all refused: a good share are numbers.
    expect(numbers).toBeGreaterThan(1000);
  });
});
