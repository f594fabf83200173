import { UpdateModel, parseWireDateTime, wireDateTimeRefusal } from '../src';

describe('parseWireDateTime', () => {
  test.each([
    ['2026-04-10T14:03:07Z', Date.UTC(2026, 3, 10, 14, 3, 7)],
    ['2026-04-10T14:03:07', Date.UTC(2026, 3, 10, 14, 3, 7)],
    ['2026-04-10T14:03:07.1234567+02:00', Date.UTC(2026, 3, 10, 12, 3, 7, 123)],
    ['2026-04-10T14:03:07;123456Z', Date.UTC(2026, 3, 10, 14, 3, 7, 123)],
    ['2026-04-10', Date.UTC(2026, 3, 10)],
    ['2026-04-10T14:03:07.123456789Z', Date.UTC(2026, 3, 10, 14, 3, 7, 123)],
    ['0001-01-01T00:00:00Z', -62_135_596_800_000],
    ['0001-01-01T00:00:00-01:00', -62_135_596_800_000 + 3_600_000],
    ['9999-12-31T23:59:59.999Z', Date.parse('9999-12-31T23:59:59.999Z')],
    ['9999-12-31T23:59:59+05:00', Date.parse('9999-12-31T18:59:59Z')],
  ])('when it is %s, then it is that instant', (text, at) => {
    expect(parseWireDateTime(text)).toBe(at);
  });

  test.each(['2026-02-30T00:00:00Z', '2026-04-10T24:00:00Z', '2026-04-10T14:03:07;Z', 'yesterday', '2026-04-10T14:03:07+25:00', '0000-01-01T00:00:00Z', '0001-01-01T00:00:00+01:00', '9999-12-31T23:59:59-05:00', '2026-04-10T14:03:07.1234567890Z'])('when it is %s, then it is not a date-time', (text) => {
    expect(parseWireDateTime(text)).toBeUndefined();
  });
});

describe('wireDateTimeRefusal', () => {
  test.each([
    ['yesterday', 'is not an ISO 8601 date-time'],
    ['2026-02-30T00:00:00Z', "is not an ISO 8601 date-time: a field is past its calendar's or clock's range"],
    ['2026-04-10T14:03:07+25:00', 'is not an ISO 8601 date-time: its offset is past 23:59'],
    ['9999-12-31T23:59:59-01:00', "is outside the years 0001 to 9999 once in UTC (the range the wrappers' DateTime holds)"],
    ['0001-01-01T00:00:00+01:00', "is outside the years 0001 to 9999 once in UTC (the range the wrappers' DateTime holds)"],
    ['2026-04-10T14:03:07Z', undefined],
  ])('when it is %s, then the refusal says %s', (text, refusal) => {
    expect(wireDateTimeRefusal(text)).toBe(refusal);
  });

  test('when LastModifiedTimeMaxAllowedValue is past year 9999 in UTC, then the model says so', () => {
    const result = UpdateModel.safeParse({ LastModifiedTimeMaxAllowedValue: '9999-12-31T23:59:59-01:00' });
    expect(result.error?.issues[0]?.message).toMatch(/^is outside the years 0001 to 9999 once in UTC/);
  });
});

describe('UpdateModel.LastModifiedTimeMaxAllowedValue', () => {
  test("when it comes in the Python wrapper's ';' form or without an offset, then it is passed on as ISO 8601 UTC", () => {
    expect(UpdateModel.parse({ LastModifiedTimeMaxAllowedValue: '2026-04-10T14:03:07;250000Z' }).LastModifiedTimeMaxAllowedValue).toBe('2026-04-10T14:03:07.250Z');
    expect(UpdateModel.parse({ LastModifiedTimeMaxAllowedValue: '2026-04-10T14:03:07.2500000' }).LastModifiedTimeMaxAllowedValue).toBe('2026-04-10T14:03:07.250Z');
  });

  test('when it is not a date-time, then the model names it', () => {
    const result = UpdateModel.safeParse({ LastModifiedTimeMaxAllowedValue: 'last tuesday' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['LastModifiedTimeMaxAllowedValue']);
  });
});
