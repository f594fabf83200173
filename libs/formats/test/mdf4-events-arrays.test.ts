import { fromDataFile, openDataFile, sliceByWindow, sliceStored, storedFromChannelData, UnsupportedFeatureError, type EventData } from '../src';
import { buildMdf4File, signalDataOffsets } from '../src/testing';
import { readFixture, sha256, SHA256 } from './fixtures';

/** Event i's value: text as a string, bytes as hex. */
function values(events: EventData, as: 'utf8' | 'hex' = 'utf8'): string[] {
  return Array.from({ length: events.offsets.length - 1 }, (_, i) => Buffer.from(events.bytes.subarray(events.offsets[i], events.offsets[i + 1])).toString(as));
}

const TIME = { name: 'time', unit: 's', dataType: 4, bitCount: 64, byteOffset: 0, cnType: 2 } as const;

/** Records of `size` bytes, the f64 master first (0.1 s apart), then what `fill` writes at each record's start. */
function records(n: number, size: number, fill: (view: DataView, at: number, i: number) => void): Uint8Array {
  const out = new Uint8Array(n * size);
  const view = new DataView(out.buffer);
  for (let i = 0; i < n; i++) {
    view.setFloat64(i * size, i / 10, true);
    fill(view, i * size, i);
  }
  return out;
}

describe('MDF 4 text, byte, structure and array channels', () => {
  describe('f12_strings_arrays_structs_410.mf4 (asammdf 8.8.9)', () => {
    const bytes = readFixture('f12_strings_arrays_structs_410.mf4');
    const file = openDataFile(bytes);
    const info = (name: string) => file.channels.find((c) => c.name === name);
    // Independent decode of the single ##DT: 200 records of 41 bytes.
    const dt = Buffer.from(bytes).indexOf('##DT') + 24;
    const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const at = (i: number, offset: number) => dt + i * 41 + offset;

    it('when the fixture is read, then it is the documented file: 200 records at 10 Hz', () => {
      expect(sha256(bytes)).toBe(SHA256['f12_strings_arrays_structs_410.mf4']);
      expect(file.channels.map((c) => c.name)).toEqual(['plain_next_to_strings', 'string_ch', 'array_3x4', 'struct_ch', 'struct_ch.sx', 'struct_ch.sy']);
      for (const c of file.channels) expect(c).toMatchObject({ sampleCount: 200, frequency: 10, regular: true });
      for (const c of file.channels) expect(c.unsupported).toBeUndefined();
    });

    it('when the catalogue is read, then the string and the structure\'s bytes are listed with their kind, the fields as numbers', () => {
      expect(info('string_ch')).toMatchObject({ kind: 'text', dataType: 'string', dimension: 1 });
      expect(info('struct_ch')).toMatchObject({ kind: 'bytes', dataType: 'bytes' });
      expect(info('struct_ch.sx')).toMatchObject({ dataType: 'float64', dimension: 1 });
      expect(info('struct_ch.sx')?.kind).toBeUndefined();
      expect(info('struct_ch.sy')).toMatchObject({ dataType: 'uint8' });
    });

    it('when string_ch (VLSD, Latin-1) is read, then its events are s00000 … s00199 on the file\'s time base', () => {
      const events = file.readEvents('string_ch');
      expect(values(events)).toEqual(Array.from({ length: 200 }, (_, i) => `s${String(i).padStart(5, '0')}`));
      expect(events.time).toEqual({ kind: 'implicit', start: 0, frequency: 10 });
      expect(events.kind).toBe('text');
      expect(events.gaps).toBeUndefined();
    });

    it('when the structure\'s fields are read, then sx and sy are the float64 at byte 32 and the uint8 at byte 40', () => {
      const sx = file.readChannel('struct_ch.sx').samples;
      const sy = file.readChannel('struct_ch.sy').samples;
      for (const i of [0, 1, 100, 199]) {
        expect(sx[i]).toBe(dv.getFloat64(at(i, 32), true));
        expect(sy[i]).toBe(dv.getUint8(at(i, 40)));
      }
      const raw = file.readEvents('struct_ch');
      expect(values(raw, 'hex')[1]).toBe(Buffer.from(bytes.subarray(at(1, 32), at(1, 41))).toString('hex'));
    });

    it('when array_3x4 is read, then it is the one float64 per record the file holds (asammdf wrote no ##CA for it)', () => {
      // 41-byte records: time, the plain channel, the VLSD offset, 8 bytes for array_3x4 and the 9-byte structure.
      expect(info('array_3x4')).toMatchObject({ dimension: 1, dataType: 'float64' });
      expect(info('array_3x4')?.shape).toBeUndefined();
      expect(file.readChannel('array_3x4').samples[3]).toBe(dv.getFloat64(at(3, 24), true));
    });

    it('when plain_next_to_strings is read, then the strings beside it do not disturb it', () => {
      expect(file.readChannel('plain_next_to_strings').samples[10]).toBe(Math.sin(1));
    });
  });

  describe('strings and byte arrays (built files)', () => {
    const fixed = (dataType: number, stored: (i: number) => Uint8Array, width = 8) =>
      buildMdf4File({
        groups: [
          {
            dataBytes: 8 + width,
            cycleCount: 3,
            records: records(3, 8 + width, (view, at, i) => new Uint8Array(view.buffer).set(stored(i), at + 8)),
            channels: [TIME, { name: 's', dataType, bitCount: width * 8, byteOffset: 8 }],
          },
        ],
      });

    it.each([
      ['Latin-1 (6)', 6, ['Größe', 'Ãx', 'é\u0080'], (t: string) => Buffer.from(t, 'latin1')],
      ['UTF-8 (7)', 7, ['Größe', 'ünï', '€'], (t: string) => Buffer.from(t, 'utf8')],
      ['UTF-16 LE (8)', 8, ['Gr', 'ü', '€'], (t: string) => Buffer.from(t, 'utf16le')],
      ['UTF-16 BE (9)', 9, ['Gr', 'ü', '€'], (t: string) => Buffer.from(t, 'utf16le').swap16()],
    ])('when fixed-length %s strings are read, then each event is the text as UTF-8, cut at its terminating zero', (_, dataType, texts, encode) => {
      const file = openDataFile(fixed(dataType, (i) => encode(texts[i])));
      expect(file.channels.find((c) => c.name === 's')).toMatchObject({ kind: 'text', dataType: 'string' });
      const events = file.readEvents('s');
      expect(values(events)).toEqual(texts);
      expect(events.time).toEqual({ kind: 'implicit', start: 0, frequency: 10 });
    });

    it('when fixed-length byte arrays are read, then each event is the bytes as stored, zeros included', () => {
      const file = openDataFile(fixed(10, (i) => Uint8Array.from([i, 0, 255, 0]), 4));
      expect(values(file.readEvents('s'), 'hex')).toEqual(['0000ff00', '0100ff00', '0200ff00']);
    });

    it.each(['SD', 'DL'] as const)('when VLSD strings are stored in %s, then each record\'s offset finds its value', (storage) => {
      const texts = ['first', '', 'a longer third value ✓', 'x'];
      const encoded = texts.map((t) => new Uint8Array(Buffer.from(t, 'utf8')));
      const offsets = signalDataOffsets(encoded);
      const file = openDataFile(
        buildMdf4File({
          groups: [
            {
              dataBytes: 16,
              cycleCount: 4,
              records: records(4, 16, (view, at, i) => view.setBigUint64(at + 8, BigInt(offsets[i]), true)),
              channels: [TIME, { name: 'v', dataType: 7, bitCount: 64, byteOffset: 8, cnType: 1, signalData: { values: encoded, storage } }],
            },
          ],
        }),
      );
      expect(values(file.readEvents('v'))).toEqual(texts);
    });

    it('when a VLSD offset points past its signal data, then the read is CORRUPT, not a crash', () => {
      const file = openDataFile(
        buildMdf4File({
          groups: [{ dataBytes: 16, cycleCount: 1, records: records(1, 16, (view, at) => view.setBigUint64(at + 8, 1000n, true)), channels: [TIME, { name: 'v', dataType: 7, bitCount: 64, byteOffset: 8, cnType: 1, signalData: { values: [new Uint8Array(3)] } }] }],
        }),
      );
      expect(() => file.readEvents('v')).toThrow(expect.objectContaining({ code: 'CORRUPT' }));
    });

    it('when a string has an invalidation bit set, then that event is a gap', () => {
      const file = openDataFile(
        buildMdf4File({
          groups: [
            {
              dataBytes: 12,
              invalBytes: 1,
              cycleCount: 2,
              records: records(2, 13, (view, at, i) => {
                view.setUint32(at + 8, 0x61 + i, true);
                view.setUint8(at + 12, i);
              }),
              channels: [TIME, { name: 's', dataType: 7, bitCount: 32, byteOffset: 8, invalBitPos: 0 }],
            },
          ],
        }),
      );
      const events = file.readEvents('s');
      expect(values(events)).toEqual(['a', 'b']);
      expect(Array.from(events.gaps ?? [])).toEqual([0, 1]);
    });

    it('when events are read over a window through fromDataFile, then offsets restart at 0, the times are those of the window\'s events, and the whole channel\'s bytes are counted as decoded', async () => {
      const eager = openDataFile(fixed(7, (i) => Buffer.from(`v${i}`)));
      const file = fromDataFile(eager);
      const { events: part, decodedBytes } = await file.readEvents('s', { whole: false, start: 0.1, end: 0.3 });
      expect(values(part)).toEqual(['v1', 'v2']);
      expect(part.offsets[0]).toBe(0);
      expect(part.time).toEqual({ kind: 'explicit', timestamps: Float64Array.of(0.1, 0.1 + 1 / 10) });
      const all = eager.readEvents('s');
      expect(decodedBytes).toBe(all.bytes.byteLength);
      const whole = await file.readEvents('s');
      expect([values(whole.events), whole.events.time.timestamps.length, whole.decodedBytes]).toEqual([values(all), all.offsets.length - 1, all.bytes.byteLength]);
    });
  });

  describe('arrays and structures (built files)', () => {
    // Records: time, then a 2 × 3 int16 array at byte 8 (stride 2), then a structure { a: uint8 at 20, b: int16 at 21 }.
    const n = 4;
    const built = buildMdf4File({
      groups: [
        {
          dataBytes: 23,
          cycleCount: n,
          records: records(n, 23, (view, at, i) => {
            for (let k = 0; k < 6; k++) view.setInt16(at + 8 + 2 * k, 100 * i + k, true);
            view.setUint8(at + 20, i);
            view.setInt16(at + 21, -i, true);
          }),
          channels: [
            TIME,
            { name: 'grid', unit: 'bar', dataType: 2, bitCount: 16, byteOffset: 8, array: { shape: [2, 3], stride: 2 }, conversion: { type: 1, values: [1, 0.5] } },
            {
              name: 'pair',
              dataType: 10,
              bitCount: 24,
              byteOffset: 20,
              fields: [
                { name: 'a', dataType: 0, bitCount: 8, byteOffset: 20 },
                { name: 'b', dataType: 2, bitCount: 16, byteOffset: 21, fields: [{ name: 'low', dataType: 0, bitCount: 8, byteOffset: 21 }] },
              ],
            },
          ],
        },
      ],
    });
    const file = openDataFile(built);

    it('when an array channel is listed, then its entry shows the shape and a dimension of its element count', () => {
      expect(file.channels.find((c) => c.name === 'grid')).toMatchObject({ dimension: 6, shape: [2, 3], unit: 'bar', dataType: 'int16' });
    });

    it('when an array channel is read, then each sample holds its values row-major, each converted', () => {
      const data = file.readChannel('grid');
      expect(data.dimension).toBe(6);
      expect(data.samples).toHaveLength(n * 6);
      expect(Array.from(data.samples.subarray(6, 12))).toEqual([0, 1, 2, 3, 4, 5].map((k) => (100 + k) * 0.5 + 1));
    });

    it('when an array channel is sliced, then whole samples are kept', () => {
      const data = file.readChannel('grid');
      expect(Array.from(sliceByWindow(data, 0.1, 0.2).samples)).toEqual(Array.from(data.samples.subarray(6, 18)));
      const stored = storedFromChannelData(data);
      expect(sliceStored(stored, 1, 3).samples).toHaveLength(12);
    });

    it('when a structure is read, then its fields (and their fields) are channels named structure.field', () => {
      expect(file.channels.map((c) => c.name)).toEqual(['grid', 'pair', 'pair.a', 'pair.b', 'pair.b.low']);
      expect(Array.from(file.readChannel('pair.a').samples)).toEqual([0, 1, 2, 3]);
      expect(Array.from(file.readChannel('pair.b').samples)).toEqual([0, -1, -2, -3]);
      expect(Array.from(file.readChannel('pair.b.low').samples)).toEqual([0, 255, 254, 253]);
      expect(file.channels.find((c) => c.name === 'pair')).toMatchObject({ kind: 'bytes' });
    });

    it.each([
      [{ shape: [2], stride: 2, type: 1 }, 'ca_type 1'],
      [{ shape: [2], stride: 2, storage: 1 }, 'CG templates'],
      [{ shape: [2], stride: 2, flags: 1 }, 'ca_flags 0x1'],
      [{ shape: [70_000], stride: 0 }, 'more than 65535 values'],
    ])('when an array is %j, then that channel is refused naming why', (array, feature) => {
      const other = openDataFile(
        buildMdf4File({
          groups: [{ dataBytes: 12, cycleCount: 1, records: records(1, 12, () => undefined), channels: [TIME, { name: 'plain', dataType: 2, bitCount: 16, byteOffset: 8 }, { name: 'arr', dataType: 2, bitCount: 16, byteOffset: 8, array }] }],
        }),
      );
      expect(other.channels.find((c) => c.name === 'arr')?.unsupported).toContain(feature);
      expect(() => other.readChannel('arr')).toThrow(UnsupportedFeatureError);
      expect(other.readChannel('plain').samples).toHaveLength(1);
    });

    it('when every record names one large VLSD value, then the read is CORRUPT before the values outgrow the file', () => {
      const big = new Uint8Array(4000);
      const n = 50;
      const file = openDataFile(
        buildMdf4File({
          groups: [{ dataBytes: 16, cycleCount: n, records: records(n, 16, () => undefined), channels: [TIME, { name: 'v', dataType: 10, bitCount: 64, byteOffset: 8, cnType: 1, signalData: { values: [big] } }] }],
        }),
      );
      expect(() => file.readEvents('v')).toThrow(expect.objectContaining({ code: 'CORRUPT' }));
    });

    it('when array elements all sit at one offset, then opening is CORRUPT', () => {
      const spec = { groups: [{ dataBytes: 12, cycleCount: 1, records: records(1, 12, () => undefined), channels: [TIME, { name: 'arr', dataType: 2, bitCount: 16, byteOffset: 8, array: { shape: [1000], stride: 0 } }] }] };
      expect(() => openDataFile(buildMdf4File(spec))).toThrow(expect.objectContaining({ code: 'CORRUPT' }));
    });

    it('when an array runs past its record, then opening is CORRUPT', () => {
      const spec = { groups: [{ dataBytes: 12, cycleCount: 1, records: records(1, 12, () => undefined), channels: [TIME, { name: 'arr', dataType: 2, bitCount: 16, byteOffset: 8, array: { shape: [3], stride: 2 } }] }] };
      expect(() => openDataFile(buildMdf4File(spec))).toThrow(expect.objectContaining({ code: 'CORRUPT' }));
    });

    it('when a structure has 130,000 fields and the caller allows that many channels, then each field is a channel', () => {
      // More fields than a call may take as arguments (about 125,000 here): they were spread into push().
      const fields = 130_000;
      const file = openDataFile(
        buildMdf4File({
          groups: [
            {
              dataBytes: 9,
              cycleCount: 2,
              records: records(2, 9, (view, at, i) => view.setUint8(at + 8, 7 * i + 1)),
              channels: [TIME, { name: 's', dataType: 10, bitCount: 8, byteOffset: 8, fields: Array.from({ length: fields }, (_, k) => ({ name: `f${k}`, dataType: 0, bitCount: 8, byteOffset: 8 })) }],
            },
          ],
        }),
        { maxChannels: 200_000 },
      );
      expect(file.channels).toHaveLength(1 + fields);
      expect(file.channels[fields].name).toBe(`s.f${fields - 1}`);
      expect(Array.from(file.readChannel(`s.f${fields - 1}`).samples)).toEqual([1, 8]);
    });

    it('when text or array channels are in a per-lap dataset, then the joined catalogue lists them unsupported', () => {
      const laps = openDataFile([built, built]);
      expect(laps.channels.find((c) => c.name === 'grid')?.unsupported).toBe('array channels of per-lap datasets');
      expect(laps.channels.find((c) => c.name === 'pair')?.unsupported).toBe('bytes channels of per-lap datasets');
      expect(laps.readChannel('pair.a').samples).toHaveLength(2 * n);
    });
  });
});
