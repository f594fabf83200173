import { CHECKPOINT_FIELDS, countRows, indexFields, scanColumn } from '../src/csv/csv-text';
import { openDataFile } from '../src';

// A wide CSV's columns are read from checkpoints every CHECKPOINT_FIELDS fields of each row, found in one pass: the
// values must be exactly those of a scan of each row from its start, whatever the rows hold.

/** A small deterministic generator (so a failure names its seed). */
function random(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 0x1_0000_0000;
  };
}

/** Rows of up to `columns` fields: numbers, empty fields, quoted fields holding the delimiter, short rows, blank lines, CRLF. */
function hostileCsv(seed: number, columns: number, rows: number, delimiter: string): string {
  const next = random(seed);
  const lines: string[] = [];
  for (let r = 0; r < rows; r++) {
    if (next() < 0.05) lines.push(next() < 0.5 ? '' : delimiter.repeat(3));
    const width = next() < 0.2 ? Math.floor(next() * columns) + 1 : next() < 0.1 ? columns + 5 : columns;
    const fields = Array.from({ length: width }, (_, c) => {
      if (c === 0) return String(r);
      const roll = next();
      if (roll < 0.1) return '';
      if (roll < 0.2) return `"a${delimiter}b""c"`;
      if (roll < 0.25) return `" ${(next() * 100).toFixed(2)} "`;
      return (next() * 1000 - 500).toFixed(3);
    });
    lines.push(fields.join(delimiter) + (next() < 0.1 ? '\r' : ''));
  }
  return lines.join('\n') + '\n';
}

describe('the field index of a wide CSV', () => {
  test.each([
    [1, 3 * CHECKPOINT_FIELDS + 7, ','],
    [2, 2 * CHECKPOINT_FIELDS, ';'],
    [3, CHECKPOINT_FIELDS + 1, '\t'],
    [4, 5 * CHECKPOINT_FIELDS - 1, ','],
  ])('when rows are short, long, blank, quoted or end in CR (seed %i, %i columns, "%s"), then every column read from the index is the scan from each row\'s start', (seed, columns, delimiter) => {
    const bytes = new TextEncoder().encode(hostileCsv(seed, columns, 300, delimiter));
    const d = delimiter.charCodeAt(0);
    const rows = countRows(bytes, 0, d);
    const index = indexFields(bytes, 0, d, rows, columns);
    expect(index.rows).toBe(rows);
    for (let column = 0; column < columns + 3; column++) {
      const [plain, fromIndex] = [new Float64Array(rows), new Float64Array(rows)];
      const [plainGaps, indexGaps] = [new Uint8Array(rows), new Uint8Array(rows)];
      expect(scanColumn(bytes, 0, d, column, fromIndex, indexGaps, 0x2e, index)).toBe(scanColumn(bytes, 0, d, column, plain, plainGaps, 0x2e));
      expect([column, Array.from(fromIndex)]).toEqual([column, Array.from(plain)]);
      expect(indexGaps).toEqual(plainGaps);
    }
  });

  test('when a file of 300 channels is opened, then each channel reads its own column (from the index), gaps where a row is short', () => {
    const header = ['Time', ...Array.from({ length: 300 }, (_, c) => `C${c}`)].join(',');
    const row = (t: number, width: number) => [t, ...Array.from({ length: width }, (_, c) => c + t / 10)].join(',');
    const file = openDataFile(new TextEncoder().encode(`${header}\n${row(0, 300)}\n${row(1, 150)}\n${row(2, 300)}\n`));
    const read = (name: string) => file.readChannel(name);
    expect(Array.from(read('C0').samples)).toEqual([0, 0.1, 0.2]);
    expect(Array.from(read('C149').samples)).toEqual([149, 149.1, 149.2]);
    const past = read('C299');
    expect([past.samples[0], past.samples[2], past.gaps?.[1]]).toEqual([299, 299.2, 1]);
  });
});
