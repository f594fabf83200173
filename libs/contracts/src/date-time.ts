/**
 * The date-times the official wrappers send (wire.md §3): ISO 8601 with `Z`, an offset or none (none = UTC), 0 to 7
 * fractional digits (.NET's round-trip format), and the Python wrapper's `YYYY-MM-DDTHH:MM:SS;ffffffZ` (a semicolon
 * before the fraction). Read by the UpdateModel's LastModifiedTimeMaxAllowedValue and by DateTime parameter values.
 */
const WIRE_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:[.;](\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** The instants .NET's DateTime holds, which the wrappers read answers into: 0001-01-01 to 9999-12-31 (UTC). */
const FIRST_INSTANT = -62_135_596_800_000;
const LAST_INSTANT = 253_402_300_799_999;

/**
 * A date or date-time as epoch milliseconds, or undefined. Every field must exist on the calendar (no 30 February,
 * no 24:00); a time without an offset is UTC, whatever the server's time zone. Digits past the millisecond are cut
 * (up to 9 are read). The instant, in UTC, is within years 1 to 9999: an answer always writes it as `YYYY-...Z`.
 */
export function parseWireDateTime(text: string): number | undefined {
  const read = readWireDateTime(text);
  return typeof read === 'number' ? read : undefined;
}

/** Why `text` is not a wire date-time (the words after the value in a refusal), or undefined when it is one. */
export function wireDateTimeRefusal(text: string): string | undefined {
  const read = readWireDateTime(text);
  return typeof read === 'number' ? undefined : read.refusal;
}

const NOT_ISO = 'is not an ISO 8601 date-time';
/** The refusal of a date-time that is one, but past the years the wrappers' DateTime holds once in UTC. */
export const OUTSIDE_WIRE_YEARS = "is outside the years 0001 to 9999 once in UTC (the range the wrappers' DateTime holds)";

function readWireDateTime(text: string): number | { refusal: string } {
  const m = WIRE_DATE_TIME.exec(text.trim());
  if (!m) return { refusal: NOT_ISO };
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4] ?? '0', m[5] ?? '0', m[6] ?? '0'].map(Number) as [number, number, number, number, number, number];
  const daysInMonth = new Date(Date.UTC(2000, month, 0)).getUTCDate() - (month === 2 && !isLeapYear(year) ? 1 : 0);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth || hour > 23 || minute > 59 || second > 59) return { refusal: `${NOT_ISO}: a field is past its calendar's or clock's range` };
  const at = new Date(0);
  at.setUTCFullYear(year, month - 1, day);
  at.setUTCHours(hour, minute, second, Number((m[7] ?? '0').padEnd(3, '0').slice(0, 3)));
  const zone = m[8];
  let t = at.getTime();
  if (zone && zone !== 'Z') {
    const [zh, zm] = [Number(zone.slice(1, 3)), Number(zone.slice(-2))];
    if (zh > 23 || zm > 59) return { refusal: `${NOT_ISO}: its offset is past 23:59` };
    t -= (zone.startsWith('-') ? -1 : 1) * (zh * 60 + zm) * 60_000;
  }
  return t >= FIRST_INSTANT && t <= LAST_INSTANT ? t : { refusal: OUTSIDE_WIRE_YEARS };
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}
