/** Line and field scanning over raw bytes, shared by the generic and MoTeC CSV layouts. */

const NL = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;
const latin1 = new TextDecoder('latin1');
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Text of a field: UTF-8 when its bytes are valid UTF-8 (what a spreadsheet or a script writes today), else Latin-1
 * (older loggers' exports). A multi-byte UTF-8 character never holds a delimiter, quote or line byte, so the fields
 * are split on bytes first and each decoded alone.
 */
function decodeText(bytes: Uint8Array): string {
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] >= 0x80) {
      try {
        return utf8.decode(bytes);
      } catch {
        return latin1.decode(bytes);
      }
    }
  }
  return latin1.decode(bytes);
}

/** End of the line starting at `from` (index of its '\n', or the input length). */
export function lineEnd(bytes: Uint8Array, from: number): number {
  const at = bytes.indexOf(NL, from);
  return at < 0 ? bytes.length : at;
}

/** Splits one line into unquoted, trimmed fields ("" inside quotes is an escaped quote). */
export function splitLine(bytes: Uint8Array, start: number, end: number, delimiter: number): string[] {
  if (end > start && bytes[end - 1] === CR) end--;
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  let runStart = start;
  for (let i = start; i < end; i++) {
    const b = bytes[i];
    if (quoted) {
      if (b === QUOTE) {
        field += decodeText(bytes.subarray(runStart, i));
        if (bytes[i + 1] === QUOTE && i + 1 < end) {
          field += '"';
          i++;
        } else quoted = false;
        runStart = i + 1;
      }
    } else if (b === QUOTE) {
      field += decodeText(bytes.subarray(runStart, i));
      quoted = true;
      runStart = i + 1;
    } else if (b === delimiter) {
      fields.push((field + decodeText(bytes.subarray(runStart, i))).trim());
      field = '';
      runStart = i + 1;
    }
  }
  fields.push((field + decodeText(bytes.subarray(runStart, end))).trim());
  return fields;
}

/**
 * How many fields `splitLine` would make of the line, counted up to `upTo` (then `upTo` is returned): delimiters outside
 * quotes, without making any string, so a header of millions of fields is refused before it is split.
 */
export function countFields(bytes: Uint8Array, start: number, end: number, delimiter: number, upTo: number): number {
  let fields = 1;
  let quoted = false;
  for (let i = start; i < end && fields < upTo; i++) {
    const b = bytes[i];
    if (b === QUOTE) quoted = !quoted;
    else if (b === delimiter && !quoted) fields++;
  }
  return fields;
}

export function isBlankLine(bytes: Uint8Array, start: number, end: number, delimiter: number): boolean {
  for (let i = start; i < end; i++) {
    const b = bytes[i];
    if (b !== CR && b !== 0x20 && b !== 0x09 && b !== QUOTE && b !== delimiter) return false;
  }
  return true;
}

const POW10 = Array.from({ length: 23 }, (_, i) => 10 ** i);

/**
 * A decimal number's text as Number() should read it (an optional sign, digits with an optional point and fraction or a
 * point and a fraction, an optional exponent): what /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/ matches, with the same
 * groups. That pattern split a run of digits between `\d+` and `\d*` in every way when there was no point (a cell of
 * 40,000 digits and a letter took 2 to 5 s, quadratic); here the fraction's digits come only after the point, so no two
 * parts can take the same digit and a cell that is no number is given up in time linear in its length.
 */
export const NUMBER_TEXT = /^[+-]?(\d+(?:\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** The byte between a number's whole and fractional part: `.`, or `,` in a file written with decimal commas. */
export const DECIMAL_POINT = 0x2e;
export const DECIMAL_COMMA = 0x2c;

/**
 * Decimal number in bytes[start, end), surrounding spaces and quotes allowed; NaN when empty, not a number or past
 * float64's range. `decimal` is the byte that separates the fraction (`.`, or `,` in a file that writes `1,5`).
 * Up to 15 significant digits the integer mantissa and the power of ten are both exact, so one division gives the
 * correctly rounded value; anything longer falls back to Number().
 */
export function parseNumber(bytes: Uint8Array, start: number, end: number, decimal = DECIMAL_POINT): number {
  while (start < end && (bytes[start] === 0x20 || bytes[start] === QUOTE || bytes[start] === 0x09)) start++;
  while (end > start && (bytes[end - 1] === 0x20 || bytes[end - 1] === QUOTE || bytes[end - 1] === CR || bytes[end - 1] === 0x09)) end--;
  if (start === end) return NaN;
  let i = start;
  let negative = false;
  if (bytes[i] === 0x2d || bytes[i] === 0x2b) {
    negative = bytes[i] === 0x2d;
    i++;
  }
  let mantissa = 0;
  let digits = 0;
  let fraction = 0;
  let seenDigit = false;
  for (; i < end; i++) {
    const d = bytes[i] - 0x30;
    if (d < 0 || d > 9) break;
    mantissa = mantissa * 10 + d;
    digits++;
    seenDigit = true;
  }
  if (i < end && bytes[i] === decimal) {
    for (i++; i < end; i++) {
      const d = bytes[i] - 0x30;
      if (d < 0 || d > 9) break;
      mantissa = mantissa * 10 + d;
      digits++;
      fraction++;
      seenDigit = true;
    }
  }
  if (i === end && seenDigit && digits <= 15) {
    const value = fraction === 0 ? mantissa : mantissa / POW10[fraction];
    return negative ? -value : value;
  }
  if (!seenDigit) return NaN;
  const written = latin1.decode(bytes.subarray(start, end));
  const text = decimal === DECIMAL_POINT || written.includes('.') ? written : written.replace(',', '.');
  // A value past float64's range (1e999) is no number either: a gap, as an empty cell, not an infinity.
  const value = NUMBER_TEXT.test(text) ? Number(text) : NaN;
  return Number.isFinite(value) ? value : NaN;
}

/**
 * Parses column `column` of every non-blank line from `from` into `out` (`decimal`: the file's decimal separator);
 * empty or non-numeric cells become NaN with a gap flag. Returns the number of rows written (never more than out.length).
 */
export function scanColumn(bytes: Uint8Array, from: number, delimiter: number, column: number, out: Float64Array, gaps: Uint8Array | null, decimal = DECIMAL_POINT, index?: CsvFieldIndex): number {
  if (index) return scanIndexedColumn(bytes, delimiter, column, out, gaps, decimal, index);
  let row = 0;
  for (let start = from; start < bytes.length && row < out.length; ) {
    const end = lineEnd(bytes, start);
    if (!isBlankLine(bytes, start, end, delimiter)) {
      const value = cellValue(bytes, start, end, 0, column, delimiter, decimal);
      out[row] = value;
      if (gaps && value !== value) gaps[row] = 1;
      row++;
    }
    start = end + 1;
  }
  return row;
}

/**
 * The number in field `column` of a line ending at `end`, scanned from `from`, where field `field` starts (the line's
 * start and 0, or a checkpoint of a `CsvFieldIndex`); NaN when the cell is empty, not a number, or not in the line.
 */
function cellValue(bytes: Uint8Array, from: number, end: number, field: number, column: number, delimiter: number, decimal: number): number {
  let fieldStart = from;
  let quoted = false;
  let i = from;
  for (; i < end; i++) {
    const b = bytes[i];
    if (b === QUOTE) quoted = !quoted;
    else if (b === delimiter && !quoted) {
      if (field === column) break;
      field++;
      fieldStart = i + 1;
    }
  }
  return field === column ? parseNumber(bytes, fieldStart, i, decimal) : NaN;
}

/** Fields between two checkpoints of a `CsvFieldIndex`: a column is found by scanning at most this many fields of a row. */
export const CHECKPOINT_FIELDS = 64;

/**
 * Where each data row ends, and where every CHECKPOINT_FIELDS-th field of it starts (row-major, `stride` a row): made in
 * one pass over the file, so that reading a column scans each row from the checkpoint before it instead of from its
 * start. Without it a file of 20,000 columns cost a pass over the whole file per channel read (95 ms for 800 samples
 * of a 30 MB file), which no sample budget saw. A checkpoint past a row's last field is the row's end.
 */
export interface CsvFieldIndex {
  rows: number;
  stride: number;
  ends: Uint32Array | Float64Array;
  checkpoints: Uint32Array | Float64Array;
}

/** The field index of the data rows from `from` (the rows `scanColumn` reads), for a file of `columns` columns. */
export function indexFields(bytes: Uint8Array, from: number, delimiter: number, rows: number, columns: number): CsvFieldIndex {
  const stride = Math.ceil(columns / CHECKPOINT_FIELDS);
  const Positions = bytes.length <= 0xffffffff ? Uint32Array : Float64Array;
  const ends = new Positions(rows);
  const checkpoints = new Positions(rows * stride);
  let row = 0;
  for (let start = from; start < bytes.length && row < rows; ) {
    const end = lineEnd(bytes, start);
    if (!isBlankLine(bytes, start, end, delimiter)) {
      const base = row * stride;
      checkpoints[base] = start;
      let field = 0;
      let next = CHECKPOINT_FIELDS;
      let quoted = false;
      for (let i = start; i < end && field < columns; i++) {
        const b = bytes[i];
        if (b === QUOTE) quoted = !quoted;
        else if (b === delimiter && !quoted && ++field === next && field < columns) {
          checkpoints[base + field / CHECKPOINT_FIELDS] = i + 1;
          next += CHECKPOINT_FIELDS;
        }
      }
      // A row of fewer fields: its missing checkpoints are its end (their columns read as gaps).
      for (let k = Math.floor(field / CHECKPOINT_FIELDS) + 1; k < stride; k++) checkpoints[base + k] = end;
      ends[row] = end;
      row++;
    }
    start = end + 1;
  }
  return { rows: row, stride, ends, checkpoints };
}

function scanIndexedColumn(bytes: Uint8Array, delimiter: number, column: number, out: Float64Array, gaps: Uint8Array | null, decimal: number, index: CsvFieldIndex): number {
  // A column past the indexed ones (a row wider than the header) is scanned on from the last checkpoint.
  const k = Math.min(Math.floor(column / CHECKPOINT_FIELDS), index.stride - 1);
  const rows = Math.min(index.rows, out.length);
  for (let row = 0; row < rows; row++) {
    const end = index.ends[row] as number;
    const checkpoint = index.checkpoints[row * index.stride + k] as number;
    // A checkpoint at the row's end after fewer fields: no such column in this row.
    const value = checkpoint >= end && k > 0 ? NaN : cellValue(bytes, checkpoint, end, k * CHECKPOINT_FIELDS, column, delimiter, decimal);
    out[row] = value;
    if (gaps && value !== value) gaps[row] = 1;
  }
  return rows;
}

/** Non-blank lines from `from` to the end: an upper bound on the data rows, counted before allocating. */
export function countRows(bytes: Uint8Array, from: number, delimiter: number): number {
  let rows = 0;
  for (let start = from; start < bytes.length; ) {
    const end = lineEnd(bytes, start);
    if (!isBlankLine(bytes, start, end, delimiter)) rows++;
    start = end + 1;
  }
  return rows;
}

/** Lines of a `;`- or tab-separated file looked at to tell whether it writes decimal commas. */
const DECIMAL_SNIFF_LINES = 50;

/**
 * The decimal separator of a file separated by `;` or tabs: `,` when its first data lines write numbers with a comma
 * (`0,01;12,5`, as a spreadsheet in a German or French locale exports them) and none with a point; else `.`. A
 * comma-separated file always uses `.`.
 */
export function decimalOf(bytes: Uint8Array, from: number, delimiter: number): number {
  if (delimiter === 0x2c) return DECIMAL_POINT;
  let commas = 0;
  let lines = 0;
  for (let start = from; start < bytes.length && lines < DECIMAL_SNIFF_LINES; ) {
    const end = lineEnd(bytes, start);
    if (!isBlankLine(bytes, start, end, delimiter)) {
      lines++;
      for (const cell of splitLine(bytes, start, end, delimiter)) {
        const text = cell.trim();
        if (/^[+-]?\d*\.\d+([eE][+-]?\d+)?$/.test(text)) return DECIMAL_POINT;
        if (/^[+-]?\d*,\d+([eE][+-]?\d+)?$/.test(text)) commas++;
      }
    }
    start = end + 1;
  }
  return commas > 0 ? DECIMAL_COMMA : DECIMAL_POINT;
}
