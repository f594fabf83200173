import type { ParameterDef } from '@pitwall/contracts';
import { convertValue } from '../../src/domain/parameters';

const text: ParameterDef = { name: 'Notes', type: 'Text' };

describe('convertValue', () => {
  test('when a Text value holds a NUL or an unpaired surrogate, then it is refused with the parameter named', () => {
    for (const raw of ['a\u0000b', 'x\ud800', '\udc00y']) expect(convertValue(text, raw)).toEqual({ error: expect.stringContaining('Notes is a Text') });
  });

  test('when a Text value holds ordinary unicode, including paired surrogates, then it is kept as is', () => {
    expect(convertValue(text, 'Öhlins 🏁 setup')).toEqual({ value: 'Öhlins 🏁 setup' });
  });

  test.each([
    ['Double', '1e3', 1000],
    ['Integer', '-42', -42],
    ['Boolean', 'TRUE', true],
    ['DateTime', '2026-04-12T14:03:07.250+02:00', '2026-04-12T12:03:07.250Z'],
    ['DateTime', '2026-04-12T14:03', '2026-04-12T14:03:00.000Z'],
    ['DateTime', '2026-04-10', '2026-04-10T00:00:00.000Z'],
    ['DateTime', '2028-02-29T23:59:59.9999Z', '2028-02-29T23:59:59.999Z'],
    ['DateTime', '2026-04-12T01:00:00-0530', '2026-04-12T06:30:00.000Z'],
    ['Double', '-.5', -0.5],
    ['Double', ' 101.234 ', 101.234],
  ] as const)('when a %s value converts, then the typed value is returned', (type, raw, value) => {
    expect(convertValue({ name: 'P', type }, raw)).toEqual({ value });
  });

  test.each([
    ['Double', 'fast'],
    ['Double', 'Infinity'],
    ['Integer', '1.5'],
    ['Integer', '99999999999999999999'],
    ['Boolean', 'yes'],
    ['DateTime', 'next tuesday'],
    ['DateTime', '2026-02-30'],
    ['DateTime', '2027-02-29T10:00:00Z'],
    ['DateTime', '2026-04-12T24:00:00Z'],
    ['DateTime', '2026-04-12T14:60:00Z'],
    ['DateTime', '2026-13-01'],
    ['DateTime', '2026-04-12T14:03:00+25:00'],
    ['Double', '0x10'],
    ['Double', '0b11'],
    ['Double', ''],
    ['Double', '1e400'],
    ['Reference', 'car-7'],
  ] as const)('when a %s value is %s, then it does not convert', (type, raw) => {
    expect(convertValue({ name: 'P', type }, raw)).toEqual({ error: expect.stringContaining(`P is a`) });
  });

  test('when a Double is decimal notation past a double\'s range, then the error says so; one nearer 0 than the least double is 0; .NET\'s exponent form converts', () => {
    expect(convertValue({ name: 'P', type: 'Double' }, '1e400')).toEqual({ error: "P is a Double; '1e400' is beyond a Double's range (±1.797e308)" });
    expect(convertValue({ name: 'P', type: 'Double' }, 'Infinity')).toEqual({ error: "P is a Double; 'Infinity' is not a number" });
    expect(convertValue({ name: 'P', type: 'Double' }, '0.1e-400')).toEqual({ value: 0 });
    expect(convertValue({ name: 'P', type: 'Double' }, '1E+20')).toEqual({ value: 1e20 });
  });

  test('when an Integer is whole but past what a double holds exactly, then the error says it is out of range', () => {
    expect(convertValue({ name: 'P', type: 'Integer' }, '9007199254740993')).toEqual({ error: "P is an Integer; '9007199254740993' is outside -9007199254740991 to 9007199254740991" });
    expect(convertValue({ name: 'P', type: 'Integer' }, '9007199254740991')).toEqual({ value: 9007199254740991 });
    expect(convertValue({ name: 'P', type: 'Integer' }, '1.5')).toEqual({ error: "P is an Integer; '1.5' is not a whole number" });
  });

  test('when a DateTime is no date, then the examples\' wording; when it is a date past year 9999 once in UTC, then it says so', () => {
    expect(convertValue({ name: 'P', type: 'DateTime' }, 'next tuesday')).toEqual({ error: "P is a DateTime; 'next tuesday' is not an ISO 8601 date" });
    expect(convertValue({ name: 'P', type: 'DateTime' }, '9999-12-31T23:59:59-01:00')).toEqual({ error: "P is a DateTime; '9999-12-31T23:59:59-01:00' is outside the years 0001 to 9999 once in UTC (the range the wrappers' DateTime holds)" });
  });

  test('when a DateTime has no offset, then it is read as UTC whatever the process time zone', () => {
    const zone = process.env['TZ'];
    try {
      for (const tz of ['Europe/Rome', 'America/Los_Angeles']) {
        process.env['TZ'] = tz;
        expect(convertValue({ name: 'P', type: 'DateTime' }, '2026-07-01T12:00:00')).toEqual({ value: '2026-07-01T12:00:00.000Z' });
      }
    } finally {
      if (zone === undefined) delete process.env['TZ'];
      else process.env['TZ'] = zone;
    }
  });

  test.each([
    ['2026-04-10T14:03:07.1234567Z', '2026-04-10T14:03:07.123Z'],
    ['2026-04-10T14:03:07;123456Z', '2026-04-10T14:03:07.123Z'],
    ['2026-04-10T14:03:07;5', '2026-04-10T14:03:07.500Z'],
    ['2026-04-10T14:03:07.9999999-0130', '2026-04-10T15:33:07.999Z'],
  ])("when a DateTime is %s (the wrappers' forms), then it converts to %s", (raw, value) => {
    expect(convertValue({ name: 'P', type: 'DateTime' }, raw)).toEqual({ value });
  });

  test.each(['2026-04-10T14:03:07;Z', '2026-04-10T14:03:07..1Z', '2026-04-10;14:03:07Z', '2026-02-29T00:00:00;000Z'])('when a DateTime is %s, then it does not convert', (raw) => {
    expect(convertValue({ name: 'P', type: 'DateTime' }, raw)).toEqual({ error: expect.stringContaining('P is a DateTime') });
  });

  test('when an Enum is given by its 0-based index, then it stores the value; an index past the end is refused', () => {
    const source: ParameterDef = { name: 'Source', type: 'Enum', enumValues: ['Weather Station', 'Manual', 'Imported', 'Timing Feed'] };
    expect(convertValue(source, '2')).toEqual({ value: 'Imported' });
    expect(convertValue(source, ' 0 ')).toEqual({ value: 'Weather Station' });
    expect(convertValue(source, 'weather station')).toEqual({ value: 'Weather Station' });
    expect(convertValue(source, '4')).toEqual({ error: expect.stringContaining('index from 0 to 3') });
    expect(convertValue(source, '-1')).toEqual({ error: expect.stringContaining('Source is an Enum') });
  });

  test('when an Enum value is itself a number, then the name wins over the index', () => {
    expect(convertValue({ name: 'Gear', type: 'Enum', enumValues: ['1', '2', '0'] }, '0')).toEqual({ value: '0' });
  });
});
