import { inflateSync } from 'node:zlib';
import { openDataFile, sliceByWindow, UnsupportedFeatureError } from '../src';
import { readFixture, sha256, SHA256 } from './fixtures';

/** Offset of the first block with this id; the fixtures hold exactly one data block each. */
function findBlock(bytes: Uint8Array, id: string): number {
  return Buffer.from(bytes).indexOf(`##${id}`);
}

describe('ASAM MDF 4 reader', () => {
  describe('simple.mf4 (DZ: transposed deflate)', () => {
    const bytes = readFixture('simple.mf4');
    const file = openDataFile(bytes);

    // Independent decode: inflate the DZ payload and undo the transposition by reading column c at c * rows.
    const dz = findBlock(bytes, 'DZ');
    const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const recordSize = dv.getUint32(dz + 24 + 4, true);
    const packedLength = Number(dv.getBigUint64(dz + 24 + 16, true));
    const columns = inflateSync(bytes.subarray(dz + 48, dz + 48 + packedLength));
    const rows = Math.floor(columns.length / recordSize);
    const byteAt = (record: number, offset: number) => columns[offset * rows + record];
    const int32At = (record: number, offset: number) => {
      const b = [0, 1, 2, 3].map((k) => byteAt(record, offset + k));
      return new DataView(Uint8Array.from(b).buffer).getInt32(0, true);
    };
    const float64At = (record: number, offset: number) => {
      const b = Array.from({ length: 8 }, (_, k) => byteAt(record, offset + k));
      return new DataView(Uint8Array.from(b).buffer).getFloat64(0, true);
    };

    it('when the fixture is read, then it is the documented file', () => {
      expect(sha256(bytes)).toBe(SHA256['simple.mf4']);
    });

    it('when opened, then 9 channels of 563 records each, the master being the time base', () => {
      expect(file.format).toBe('mdf4');
      expect(recordSize).toBe(48);
      expect(rows).toBe(563);
      expect(file.channels.map((c) => c.name)).toEqual(['abs_time', 'acc_x', 'acc_y', 'acc_z', 'light', 'temp', 'comp_x', 'comp_y', 'comp_z']);
      for (const c of file.channels) expect(c.sampleCount).toBe(563);
      expect(file.channels.find((c) => c.name === 'temp')).toMatchObject({ unit: 'degC', dataType: 'int32', regular: false });
    });

    it.each([
      ['acc_x', 16],
      ['acc_z', 24],
      ['temp', 32],
      ['comp_x', 36],
      ['comp_z', 44],
    ])('when %s is read, then every sample equals the int32 at record offset %i', (name, offset) => {
      const data = file.readChannel(name);
      expect(data.samples).toHaveLength(563);
      expect(data.samples[0]).toBe(int32At(0, offset));
      expect(data.samples[562]).toBe(int32At(562, offset));
      for (let i = 0; i < 563; i++) expect(data.samples[i]).toBe(int32At(i, offset));
    });

    it('when the whole file is read as a window [startTime, startTime + duration), then every record is in it, the last included', () => {
      const data = file.readChannel('acc_x');
      const last = float64At(562, 0);
      // Irregular: the file lasts one mean period past its last record, as a regular one lasts n / frequency.
      expect(file.duration).toBeCloseTo(last - float64At(0, 0) + 1 / (file.channels.find((c) => c.name === 'acc_x')?.frequency as number), 0);
      expect(file.duration).toBeGreaterThan(last - float64At(0, 0));
      expect(sliceByWindow(data, file.startTime, file.duration).samples).toHaveLength(563);
    });

    it('when a channel is read, then its explicit timestamps are the master values (irregular sampling kept)', () => {
      const data = file.readChannel('acc_x');
      if (data.time.kind !== 'explicit') throw new Error('expected explicit timestamps');
      expect(data.time.timestamps[0]).toBe(float64At(0, 0));
      expect(data.time.timestamps[562]).toBe(float64At(562, 0));
      expect(file.startTime).toBe(float64At(0, 0));
    });

    it('when abs_time (int64 ns) is read, then it spans about 10.0 s', () => {
      const abs = file.readChannel('abs_time').samples;
      expect((abs[562] - abs[0]) / 1e9).toBeCloseTo(10.0, 1);
    });
  });

  describe('asammdf_dimensional_demo.mf4 (DT, one channel per conversion)', () => {
    const bytes = readFixture('asammdf_dimensional_demo.mf4');
    const file = openDataFile(bytes);
    const channel = (name: string) => file.readChannel(name);

    it('when the fixture is read, then it is the documented file', () => {
      expect(sha256(bytes)).toBe(SHA256['asammdf_dimensional_demo.mf4']);
    });

    it('when opened, then 100 records on a regular 1 Hz master from 0 s', () => {
      expect(file.startTime).toBe(0);
      const data = channel('Channel_no_conversion');
      expect(data.time).toEqual({ kind: 'implicit', start: 0, frequency: 1 });
      expect(data.samples).toHaveLength(100);
      // Master is the f64 at the start of each 80-byte record in the single DT block.
      const dt = findBlock(bytes, 'DT') + 24;
      const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      expect(dv.getFloat64(dt + 99 * 80, true)).toBe(99);
    });

    it('when the linear channel (a0 -0.5, a1 2.0) is read, then raw 1 gives 1.5', () => {
      expect(channel('Channel_no_conversion').samples[0]).toBe(1);
      expect(channel('Channel_linear_conversion').samples[0]).toBe(1.5);
      expect(channel('Channel_linear_conversion').unit).toBe('Nm');
    });

    it('when the rational channel is read, then the value follows (P1x²+P2x+P3)/(P4x²+P5x+P6)', () => {
      // The file's CC holds P = [0, 4, -0.5, 0, 0, 1], so raw 1 gives (4 - 0.5) / 1.
      expect(channel('Channel_rational_conversion').samples[0]).toBeCloseTo(3.5, 12);
    });

    it('when text conversions are read, then samples stay numeric codes and labels sit in the catalogue', () => {
      const valueText = file.channels.find((c) => c.name === 'Channel_value_to_text');
      expect(valueText?.labels?.[1]).toEqual({ min: 1, max: 1, text: 'key_1' });
      const rangeText = file.channels.find((c) => c.name === 'Channel_value_range_to_text');
      expect(rangeText?.labels?.[2]).toEqual({ min: 20, max: 25, text: 'Level 2' });
      const codes = channel('Channel_value_to_text').samples;
      expect(Number.isInteger(codes[5])).toBe(true);
    });

    it('when table and range-to-value channels are read, then their values are the table lookups', () => {
      expect(channel('Channel_value_range_to_value').samples[99]).toBe(19);
      expect(channel('Channel_tabular').samples[0]).toBe(0);
    });

    it('when the algebraic channel (2 * sin(X)) is read, then each value is the formula over the raw value', () => {
      const dt = findBlock(bytes, 'DT') + 24;
      const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      const info = file.channels.find((c) => c.name === 'Channel_algebraic');
      expect(info).toMatchObject({ dataType: 'float64' });
      expect(info?.unsupported).toBeUndefined();
      const samples = channel('Channel_algebraic').samples;
      // Its raw float64 sits at byte 24 of each 80-byte record.
      for (const i of [0, 1, 50, 99]) expect(samples[i]).toBe(2 * Math.sin(dv.getFloat64(dt + i * 80 + 24, true)));
    });

    it('when the VLSD string and the byte-array channels are read, then they are events of text and of bytes', () => {
      expect(file.channels.find((c) => c.name === 'Channel_string')).toMatchObject({ kind: 'text', dataType: 'string', sampleCount: 100 });
      expect(file.channels.find((c) => c.name === 'Channel_bytearay')).toMatchObject({ kind: 'bytes', dataType: 'bytes', sampleCount: 100 });
      const text = file.readEvents('Channel_string');
      expect(text.offsets).toHaveLength(101);
      expect(Buffer.from(text.bytes.subarray(text.offsets[0], text.offsets[1])).toString('utf8')).toBe('String channel sample 0');
      expect(Buffer.from(text.bytes.subarray(text.offsets[99], text.offsets[100])).toString('utf8')).toBe('String channel sample 99');
      const bytesRead = file.readEvents('Channel_bytearay');
      expect(bytesRead.offsets[1]).toBe(8);
      expect(text.time).toEqual({ kind: 'implicit', start: 0, frequency: 1 });
    });

    it('when a text channel is read as numbers, then a typed UNSUPPORTED error says to read its events', () => {
      expect(() => channel('Channel_string')).toThrow(UnsupportedFeatureError);
      expect(() => channel('Channel_string')).toThrow(/read its events/);
      expect(() => file.readEvents('Channel_no_conversion')).toThrow(/read as events/);
    });

    it('when the data group claims record ids its records do not have, then opening reports it corrupt (unsorted groups are read: mdf4-unsorted.test.ts)', () => {
      const copy = bytes.slice();
      const dg = findBlock(copy, 'DG');
      copy[dg + 24 + 4 * 8] = 1; // dg_rec_id_size, first byte of the data section after 4 links
      expect(() => openDataFile(copy)).toThrow(expect.objectContaining({ code: 'CORRUPT', reason: expect.stringMatching(/record id \d+ at byte \d+ of the data names no channel group|runs past its end|records of channel group \d+ \(\d+ bytes each after a 1-byte record id\) need more/) }));
    });
  });
});
