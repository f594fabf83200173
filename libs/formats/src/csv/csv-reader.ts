import { toNanosecond } from '@pitwall/channels';
import { CorruptDataFileError, DataFileLimitError, DEFAULT_MAX_CHANNELS_PER_FILE } from '../errors';
import {
  boundariesOfLapChannels,
  isRunningLapTimeUnit,
  buildDataFile,
  type ChannelSource,
  type DataFile,
  detectTimeBase,
  MAX_TIME_SECONDS,
  timeBaseEnd,
  emptyProperties,
  type FileProperties,
  lapsFromBoundaries,
  uniqueName,
} from '../model';
import { timeHeader, unitInName } from './csv-header';
import { CHECKPOINT_FIELDS, countFields, countRows, type CsvFieldIndex, decimalOf, DECIMAL_POINT, indexFields, isBlankLine, lineEnd, parseNumber, scanColumn, splitLine } from './csv-text';

/** Where the parts of a CSV file are, found from its first lines. */
export interface CsvLayout {
  kind: 'csv' | 'motec-csv';
  delimiter: number;
  /** The byte between a number's whole and fractional part: `.`, or `,` (decimal commas, in a `;`- or tab-separated file). */
  decimal: number;
  names: string[];
  units: string[];
  timeColumn: number;
  dataStart: number;
  /** MoTeC preamble rows: key → the fields after it. */
  preamble: Map<string, string[]>;
}

const SNIFF_BYTES = 4096;
const MAX_PREAMBLE_LINES = 100;

/**
 * A text file whose header has a time column (or a MoTeC CSV preamble); null when the bytes are not such a CSV. A
 * header of more than `maxChannels` channels besides its time column is a DataFileLimitError before it is split (its
 * fields counted, not made: a 57 MB header of 20 million fields had run a gigabyte heap out of memory).
 */
export function sniffCsv(bytes: Uint8Array, maxChannels = DEFAULT_MAX_CHANNELS_PER_FILE): CsvLayout | null {
  const maxFields = maxChannels + 1;
  let start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  for (let i = start; i < Math.min(bytes.length, SNIFF_BYTES); i++) {
    const b = bytes[i];
    if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d) return null; // binary, not text
  }
  const firstEnd = lineEnd(bytes, start);
  // A MoTeC CSV's first line is a short preamble row; a longer one is a header, counted below.
  if (countFields(bytes, start, firstEnd, 0x2c, maxFields + 1) <= maxFields) {
    const first = splitLine(bytes, start, firstEnd, 0x2c);
    if (first[0] === 'Format' && first.some((f) => /MoTeC CSV/i.test(f))) return motecLayout(bytes, start, maxFields);
  }

  while (start < bytes.length && isBlankLine(bytes, start, lineEnd(bytes, start), 0x2c)) start = lineEnd(bytes, start) + 1;
  const end = lineEnd(bytes, start);
  const delimiter = pickDelimiter(bytes, start, end);
  if (delimiter === 0) return null;
  refuseWide('csv', countFields(bytes, start, end, delimiter, maxFields + 1), maxChannels);
  const header = splitLine(bytes, start, end, delimiter);
  // A time column's header: `Time`, `Timestamp` or `t`, or the word for time of the locales that write decimal commas (`Zeit`, `Temps`, `Tiempo`, `Tempo`), with an optional unit.
  const timeColumn = header.findIndex((h) => timeHeader(h) !== null);
  if (timeColumn < 0 || header.length < 2) return null;
  const names: string[] = [];
  const units: string[] = [];
  for (const h of header) {
    const m = unitInName(h);
    names.push(m ? m[0] : h);
    units.push(m ? m[1] : '');
  }
  let dataStart = end + 1;
  const decimal = decimalOf(bytes, dataStart, delimiter);
  // A second row that is not a number in the time column is a unit row.
  const nextEnd = lineEnd(bytes, dataStart);
  // A row of more fields than the header is no unit row (and is not split: the columns are scanned where they are).
  if (dataStart < bytes.length && countFields(bytes, dataStart, nextEnd, delimiter, names.length + 1) <= names.length) {
    const next = splitLine(bytes, dataStart, nextEnd, delimiter);
    const time = new TextEncoder().encode(next[timeColumn] ?? '');
    if (next[timeColumn] !== undefined && next[timeColumn].trim() !== '' && Number.isNaN(parseNumber(time, 0, time.length, decimal))) {
      next.forEach((u, i) => (units[i] = units[i] || u));
      dataStart = nextEnd + 1;
    }
  }
  return { kind: 'csv', delimiter, decimal, names, units, timeColumn, dataStart, preamble: new Map() };
}

function pickDelimiter(bytes: Uint8Array, start: number, end: number): number {
  let best = 0;
  let bestCount = 0;
  for (const d of [0x2c, 0x3b, 0x09]) {
    let count = 0;
    for (let i = start; i < end; i++) if (bytes[i] === d) count++;
    if (count > bestCount) [best, bestCount] = [d, count];
  }
  return best;
}

function motecLayout(bytes: Uint8Array, from: number, maxFields: number): CsvLayout {
  const preamble = new Map<string, string[]>();
  let start = from;
  for (let line = 0; start < bytes.length && line < MAX_PREAMBLE_LINES; line++) {
    const end = lineEnd(bytes, start);
    refuseWide('motec-csv', countFields(bytes, start, end, 0x2c, maxFields + 1), maxFields - 1);
    const fields = splitLine(bytes, start, end, 0x2c);
    if (fields[0] === 'Time') {
      const unitsEnd = lineEnd(bytes, end + 1);
      const unitsStart = Math.min(end + 1, bytes.length);
      refuseWide('motec-csv', countFields(bytes, unitsStart, unitsEnd, 0x2c, maxFields + 1), maxFields - 1);
      const units = splitLine(bytes, unitsStart, unitsEnd, 0x2c);
      return { kind: 'motec-csv', delimiter: 0x2c, decimal: DECIMAL_POINT, names: fields, units: fields.map((_, i) => units[i] ?? ''), timeColumn: 0, dataStart: unitsEnd + 1, preamble };
    }
    if (fields[0]) preamble.set(fields[0], fields.slice(1));
    // Preamble rows hold two key/value pairs side by side ("Venue","Calder",,,"Worksheet","...").
    if (fields[4] && fields.length > 5) preamble.set(fields[4], fields.slice(5));
    start = end + 1;
  }
  throw new CorruptDataFileError('motec-csv', 'no "Time" header row after the preamble', start);
}

/** A line of more fields than a time column and `maxChannels` channels: refused before it is split. */
function refuseWide(kind: 'csv' | 'motec-csv', fields: number, maxChannels: number): void {
  if (fields > maxChannels + 1) throw new DataFileLimitError(kind, 'channels', maxChannels, fields - 1);
}

/** A time column's unit other than seconds (the micro sign and the Greek mu both spell µs). */
const TIME_UNITS: Readonly<Record<string, number>> = { ms: 1e-3, us: 1e-6, 'µs': 1e-6, 'μs': 1e-6, ns: 1e-9 };

export function readCsvFile(bytes: Uint8Array, layout: CsvLayout, maxLaps?: number): DataFile {
  const format = layout.kind;
  const rows = countRows(bytes, layout.dataStart, layout.delimiter);
  const timestamps = new Float64Array(rows);
  scanColumn(bytes, layout.dataStart, layout.delimiter, layout.timeColumn, timestamps, null, layout.decimal);
  const timeUnit = layout.units[layout.timeColumn].toLowerCase();
  const toSeconds = Object.hasOwn(TIME_UNITS, timeUnit) ? (TIME_UNITS[timeUnit] as number) : 1;
  for (let i = 0; i < rows; i++) {
    // Times in ms, µs or ns become seconds to the nanosecond, as every time the service answers (45.7 ms is 0.0457 s,
    // not the product's 0.045700000000000005).
    if (toSeconds !== 1) timestamps[i] = toNanosecond(timestamps[i] * toSeconds);
    if (!(timestamps[i] >= timestamps[i - 1] || i === 0) || Number.isNaN(timestamps[i])) {
      throw new CorruptDataFileError(format, `time in data row ${i + 1} is missing or goes backwards`, rowOffset(bytes, layout, i));
    }
    if (Math.abs(timestamps[i]) > MAX_TIME_SECONDS) {
      throw new CorruptDataFileError(format, `time in data row ${i + 1} (${timestamps[i]} s) is farther from 0 than ${MAX_TIME_SECONDS} s`, rowOffset(bytes, layout, i));
    }
  }
  // Printed times are rounded; a fifth of a period absorbs that without calling jittery data regular.
  const base = detectTimeBase(timestamps, 0.2);
  const taken = new Set<string>();
  const sources: ChannelSource[] = [];
  // A wide file's columns are read from checkpoints (indexed at the first read), not from each row's start.
  let index: CsvFieldIndex | undefined;
  const wide = layout.names.length > CHECKPOINT_FIELDS;
  const indexed = () => (wide ? (index ??= indexFields(bytes, layout.dataStart, layout.delimiter, rows, layout.names.length)) : undefined);
  layout.names.forEach((columnName, column) => {
    if (column === layout.timeColumn || columnName === '') return;
    const name = uniqueName(columnName, taken);
    const info = { name, unit: layout.units[column] ?? '', frequency: base.frequency, regular: base.regular, sampleCount: rows, dimension: 1, dataType: 'float64' };
    sources.push({
      info,
      read: () => {
        const samples = new Float64Array(rows);
        const gaps = new Uint8Array(rows);
        scanColumn(bytes, layout.dataStart, layout.delimiter, column, samples, gaps, layout.decimal, indexed());
        const time = base.time.kind === 'implicit' ? base.time : { kind: 'explicit' as const, timestamps: timestamps.slice() };
        return { name, unit: info.unit, frequency: info.frequency, dimension: 1, samples, time, ...(gaps.includes(1) ? { gaps } : {}) };
      },
    });
  });

  const startTime = rows > 0 ? timestamps[0] : 0;
  // One period past the last row, so the whole file's window and its last lap hold the last row.
  const end = rows === 0 ? 0 : timeBaseEnd(base, timestamps);
  const duration = end - startTime;
  const lapCounter = sources.find((s) => /^lap( number)?$/i.test(s.info.name));
  // A running lap time (s or ms) places a counter's laps at the line, or gives them alone, as a .ld's does.
  const running = sources.find((s) => /^running lap time$/i.test(s.info.name) && isRunningLapTimeUnit(s.info.unit));
  const beacons = layout.preamble.get('Beacon Markers');
  const boundaries = beacons ? beacons.map(Number).filter(Number.isFinite).map((t) => startTime + t) : boundariesOfLapChannels(lapCounter ? { kind: 'counter', read: lapCounter.read } : null, running ? running.read : null, maxLaps, startTime);
  const laps = lapsFromBoundaries(startTime, startTime + duration, boundaries, format, maxLaps);
  return buildDataFile({ format, properties: csvProperties(layout.preamble), startTime, duration, laps }, sources);
}

function rowOffset(bytes: Uint8Array, layout: CsvLayout, row: number): number {
  let seen = -1;
  for (let start = layout.dataStart; start < bytes.length; ) {
    const end = lineEnd(bytes, start);
    if (!isBlankLine(bytes, start, end, layout.delimiter) && ++seen === row) return start;
    start = end + 1;
  }
  return layout.dataStart;
}

function csvProperties(preamble: Map<string, string[]>): FileProperties {
  const properties = emptyProperties();
  const get = (key: string) => preamble.get(key)?.[0] || null;
  properties.venueName = get('Venue');
  properties.carId = get('Vehicle');
  properties.driverName = get('Driver');
  properties.eventName = get('Event');
  properties.sessionName = get('Session');
  properties.comment = get('Comment') ?? get('Short Comment');
  const run = Number(get('Run'));
  properties.runNumber = get('Run') !== null && Number.isFinite(run) ? run : null;
  const date = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(get('Log Date') ?? '');
  const time = /^(\d{1,2}):(\d{2}):(\d{2})/.exec(get('Log Time') ?? '');
  if (date && time) properties.outingTime = `${date[3]}-${date[2].padStart(2, '0')}-${date[1].padStart(2, '0')}T${time[1].padStart(2, '0')}:${time[2]}:${time[3]}`;
  return properties;
}
