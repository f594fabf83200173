import { CorruptDataFileError, DataFileLimitError, openDataFile, UnsupportedFeatureError } from '../src';
import { buildMdf4File, type Mdf4GroupSpec } from '../src/testing';
import { readFixture, sha256, SHA256 } from './fixtures';

const MiB = 1024 * 1024;

describe('MDF 4.3 compressed data blocks (issue 39, item 6)', () => {
  describe.each([
    ['f14_430_zstd.mf4', 'zstd (zip type 2)'],
    ['f14_430_transposed_lz4.mf4', 'transposed LZ4 (zip type 5, linked 64 KiB blocks)'],
  ])('%s, written by asammdf 8.8.9: %s', (name) => {
    const bytes = readFixture(name);
    const file = openDataFile(bytes);

    it('when it is checked, then it is the file SOURCES.md lists', () => {
      expect(sha256(bytes)).toBe(SHA256[name]);
    });

    it('when opened, then it has z_f64 and z_i16, 200,000 samples each at 1 kHz from 0 s', () => {
      expect(file.channels.map((c) => [c.name, c.sampleCount, c.frequency, c.regular, c.dataType])).toEqual([
        ['z_f64', 200_000, 1000, true, 'float64'],
        ['z_i16', 200_000, 1000, true, 'int16'],
      ]);
      expect(file.startTime).toBe(0);
      expect(file.duration).toBeCloseTo(200, 9);
    });

    it('when read, then z_f64 is the sine of time and z_i16 the sample index mod 1000', () => {
      const sine = file.readChannel('z_f64').samples;
      const index = file.readChannel('z_i16').samples;
      for (let i = 0; i < 200_000; i++) {
        if (Math.abs(sine[i] - Math.sin(i / 1000)) > 1e-12 || index[i] !== i % 1000) throw new Error(`sample ${i}: ${sine[i]}, ${index[i]}`);
      }
    });
  });

  const records = (n: number) => {
    const bytes = new Uint8Array(n * 10);
    const v = new DataView(bytes.buffer);
    for (let i = 0; i < n; i++) {
      v.setFloat64(i * 10, i / 100, true);
      v.setInt16(i * 10 + 8, (Math.imul(i, 2654435761) >>> 16) - 32768, true); // noise: real signals do not pack 80:1
    }
    return bytes;
  };
  const group = (storage: Mdf4GroupSpec['storage'], n = 50_000, bytes = records(n)): Mdf4GroupSpec => ({
    dataBytes: 10,
    cycleCount: n,
    records: bytes,
    storage,
    channels: [
      { name: 'time', dataType: 4, bitCount: 64, byteOffset: 0, cnType: 2 },
      { name: 'value', dataType: 2, bitCount: 16, byteOffset: 8 },
    ],
  });

  it.each(['DZ-zstd', 'DZ-zstd-transposed', 'DZ-lz4', 'DZ-lz4-transposed', 'DL-DZ-lz4'] as const)('when 50,000 records are stored as %s, then they read as the same records stored as DT', (storage) => {
    const plain = openDataFile(buildMdf4File({ groups: [group('DT')] })).readChannel('value');
    const packed = openDataFile(buildMdf4File({ groups: [group(storage)] }));
    expect(packed.readChannel('value').samples).toEqual(plain.samples);
    expect(packed.duration).toBeCloseTo(500, 9);
  });

  /** Offset of the first ##DZ block's data section (a block without links). */
  const dzData = (bytes: Uint8Array) => Buffer.from(bytes).indexOf('##DZ') + 24;

  it('when a ##DZ names a zip type MDF does not define, then UNSUPPORTED names the number and the codecs that exist', () => {
    const bytes = buildMdf4File({ groups: [group('DZ-zstd', 100)] });
    bytes[dzData(bytes) + 2] = 9;
    expect(() => openDataFile(bytes)).toThrow(UnsupportedFeatureError);
    expect(() => openDataFile(bytes)).toThrow(/zip type 9 \(MDF 4.3 defines 0 to 5: deflate, zstd and LZ4/);
  });

  it('when the runtime has no zstd, then UNSUPPORTED names the codec, not its number', () => {
    jest.isolateModules(() => {
      jest.doMock('node:zlib', () => ({ ...jest.requireActual('node:zlib'), zstdDecompressSync: undefined }));
      const isolated = jest.requireActual('../src') as typeof import('../src');
      const bytes = buildMdf4File({ groups: [group('DZ-zstd-transposed', 100)] });
      expect(() => isolated.openDataFile(bytes)).toThrow(expect.objectContaining({ code: 'UNSUPPORTED', feature: 'transposed zstd-compressed data blocks (this runtime has no zstd)' }));
    });
    jest.dontMock('node:zlib');
  });

  it.each(['DZ-zstd', 'DZ-lz4'] as const)('when a %s block declares fewer bytes than its stream holds, then the stream stops there and the file is corrupt', (storage) => {
    const bytes = buildMdf4File({ groups: [group(storage, 1000)] });
    const v = new DataView(bytes.buffer);
    const at = dzData(bytes);
    v.setBigUint64(at + 8, 5000n, true); // org length: half the records
    v.setBigUint64(Buffer.from(bytes).indexOf('##CG') + 24 + 6 * 8 + 8, 500n, true); // and half the cycles, so the group fits
    expect(() => openDataFile(bytes)).toThrow(CorruptDataFileError);
  });

  it.each(['DZ-zstd', 'DZ-lz4-transposed'] as const)('when a %s block declares more bytes than its stream holds, then the file is corrupt', (storage) => {
    const bytes = buildMdf4File({ groups: [group(storage, 1000)] });
    new DataView(bytes.buffer).setBigUint64(dzData(bytes) + 8, 10_008n, true);
    expect(() => openDataFile(bytes)).toThrow(/decompressed to 10000 bytes, declared 10008|stream is damaged/);
  });

  it.each(['DZ-zstd', 'DZ-lz4'] as const)('when a %s stream is damaged, then the file is corrupt, not a crash', (storage) => {
    const bytes = buildMdf4File({ groups: [group(storage, 1000)] });
    const at = dzData(bytes) + 24;
    for (let k = 0; k < 40; k++) bytes[at + 20 + k] ^= 0x5a;
    expect(() => openDataFile(bytes).readChannel('value')).toThrow(CorruptDataFileError);
  });

  it('when every transposed ##DZ declares more columns (zip_param 0xFFFFFFFF) than its bytes, then there is no whole row to transpose and its bytes read as they are', async () => {
    // Eight groups of three one-record blocks: 24 blocks, each of which took a loop over 2^32 columns of no row (about
    // half a minute each here).
    const groups = (storage: Mdf4GroupSpec['storage']) => Array.from({ length: 8 }, () => group(storage, 3));
    const bytes = buildMdf4File({ groups: groups('DL-DZ') });
    const text = Buffer.from(bytes);
    let blocks = 0;
    for (let at = text.indexOf('##DZ'); at >= 0; at = text.indexOf('##DZ', at + 4), blocks++) new DataView(bytes.buffer).setUint32(at + 24 + 4, 0xffffffff, true);
    expect(blocks).toBe(24);
    const file = openDataFile(bytes);
    const plain = openDataFile(buildMdf4File({ groups: groups('DL') }));
    expect(file.channels).toEqual(plain.channels);
    for (const { name } of plain.channels) expect(file.readChannel(name)).toEqual(plain.readChannel(name));
    // Jest cannot interrupt synchronous work, and a test that never yields passes however long it took: yielding once
    // lets its timeout fail a read that outlasted it.
    await new Promise((resolve) => setTimeout(resolve, 0));
  });

  describe('decompression bombs', () => {
    // 2 MiB of zero records: a few hundred bytes of zstd, about 8 KB of LZ4.
    const bomb = (storage: Mdf4GroupSpec['storage']) => buildMdf4File({ groups: [group(storage, 209_715, new Uint8Array(2_097_150))] });

    it.each(['DZ-zstd', 'DZ-lz4', 'DZ-lz4-transposed'] as const)('when a %s block unpacks past 64 times the file, then it is refused at open with a DataFileLimitError, before decompressing', (storage) => {
      const bytes = bomb(storage);
      expect(bytes.length * 64).toBeLessThan(2 * MiB);
      const error = (() => {
        try {
          openDataFile(bytes);
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(DataFileLimitError);
      expect(error).toMatchObject({ limit: 'decompressed bytes', max: 64 * bytes.length, found: 2_097_150 });
      expect((error as Error).message).toMatch(/data blocks decompress to 2097150 bytes, more than the \d+ this file may decompress to/);
    });

    it('when the caller allows the ratio, then the same file opens; the absolute bound still holds', () => {
      const bytes = bomb('DZ-zstd');
      expect(openDataFile(bytes, { decompression: { maxBytes: 64 * MiB, maxRatio: 1e6 } }).readChannel('value').samples[200_000]).toBe(0);
      expect(() => openDataFile(bytes, { decompression: { maxBytes: MiB, maxRatio: 1e6 } })).toThrow(expect.objectContaining({ max: MiB }));
    });

    it('when a per-lap dataset holds a bomb, then its limits apply to each file', () => {
      const bytes = bomb('DZ-lz4');
      expect(() => openDataFile([bytes, bytes])).toThrow(DataFileLimitError);
    });
  });
});
