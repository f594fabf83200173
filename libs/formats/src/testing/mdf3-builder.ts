/**
 * Builds small MDF 3.x files for tests, as buildMdf4File does for 4.10: records are given byte by byte (in the byte
 * order the channels declare), and the version chooses the block layouts that differ between 3.00 and 3.30.
 */
export interface Mdf3ConversionSpec {
  /**
   * cc_type: 0 linear (values [P1 offset, P2 factor]), 1/2 table with/without interpolation (key, value pairs),
   * 6 polynomial (P1..P6), 7 exponential and 8 logarithmic (P1..P7), 9 rational (P1..P6), 10 text formula (`formula`),
   * 11 value→text (values: keys, texts: one per key), 12 range→text (values: lower, upper per range; texts: the default
   * first, then one per range), 65535 1:1; any other number is written with `values` as its parameters.
   */
  type: number;
  values?: number[];
  texts?: string[];
  formula?: string;
}

export interface Mdf3ChannelSpec {
  name: string;
  /** The CCBLOCK's unit (a 1:1 conversion carries it when the channel has no other). */
  unit?: string;
  /**
   * MDF 3 data type: 0 uint, 1 int, 2 float, 3 double (in the IDBLOCK's byte order); 9-12 the same big-endian
   * (Motorola); 13-16 little-endian (Intel); 7 string, 8 byte array, 4-6 VAX floats.
   */
  dataType: number;
  bitCount: number;
  byteOffset: number;
  bitOffset?: number;
  /** Channel type 1: the group's time channel. */
  master?: boolean;
  conversion?: Mdf3ConversionSpec;
  /** Stores the name in a long-name TXBLOCK (CNBLOCKs of 222 bytes and more), the short name left empty. */
  longName?: boolean;
  /** A display-name TXBLOCK (CNBLOCKs of 228 bytes). */
  displayName?: string;
  /** Puts the byte offset in the additional byte offset field (228-byte CNBLOCKs) instead of the start bit. */
  additionalByteOffset?: boolean;
}

export interface Mdf3GroupSpec {
  /** Bytes of one record, record ids excluded. */
  recordSize: number;
  cycleCount: number;
  /** cycleCount records of recordSize bytes each, without record ids (the builder adds them). */
  records: Uint8Array;
  channels: Mdf3ChannelSpec[];
  /** Record ids per record: 1 before each record, 2 before and after (id 1). */
  recordIds?: 0 | 1 | 2;
  /** Adds a second, empty channel group to the data group: an unsorted group. */
  unsorted?: boolean;
}

export interface Mdf3FileSpec {
  /** "3.00" to "3.30" (default): before 3.20 the HDBLOCK has no timestamp and the DGBLOCK no reserved bytes; before 3.30 the CGBLOCK no sample reduction link. */
  version?: string;
  /** IDBLOCK default byte order of data types 0-3: 0 little-endian (default), 1 big-endian. */
  byteOrder?: 0 | 1;
  /** CNBLOCK size: 218 (short name only), 222 (long name link), 228 (default: display name and additional byte offset). */
  cnBlockSize?: 218 | 222 | 228;
  /** HDBLOCK date "DD:MM:YYYY" and time "HH:MM:SS" (default 28:11:2026 10:30:00). */
  date?: string;
  time?: string;
  /** 3.20 and later: start time, ns since 1970 UTC (default 0: not set). */
  timestampNs?: bigint;
  subject?: string;
  comment?: string;
  groups: Mdf3GroupSpec[];
}

interface Block {
  bytes: Uint8Array;
  links: { at: number; target: Block }[];
  offset?: number;
}

export function buildMdf3File(spec: Mdf3FileSpec): Uint8Array {
  const version = spec.version ?? '3.30';
  const versionNumber = Math.round(Number(version) * 100);
  const cnSize = spec.cnBlockSize ?? 228;
  const blocks: Block[] = [];
  const block = (id: string | null, size: number): { b: Block; v: DataView } => {
    const bytes = new Uint8Array(size);
    if (id) {
      bytes.set(ascii(id), 0);
      new DataView(bytes.buffer).setUint16(2, size, true);
    }
    const b: Block = { bytes, links: [] };
    blocks.push(b);
    return { b, v: new DataView(bytes.buffer) };
  };
  const linkTo = (from: Block, at: number, target: Block | null) => {
    if (target) from.links.push({ at, target });
  };
  const text = (value: string): Block => {
    const encoded = new TextEncoder().encode(value);
    const { b } = block('TX', 4 + encoded.length + 1);
    b.bytes.set(encoded, 4);
    return b;
  };

  const hd = block('HD', versionNumber >= 320 ? 208 : 164);
  hd.v.setUint16(16, spec.groups.length, true);
  hd.b.bytes.set(ascii(spec.date ?? '28:11:2026'), 18);
  hd.b.bytes.set(ascii(spec.time ?? '10:30:00'), 28);
  hd.b.bytes.set(ascii('pitwall'), 36);
  if (spec.subject) hd.b.bytes.set(ascii(spec.subject), 132);
  if (versionNumber >= 320) hd.v.setBigUint64(164, spec.timestampNs ?? 0n, true);
  if (spec.comment) linkTo(hd.b, 8, text(spec.comment));

  let previousDg: Block | null = null;
  for (const group of spec.groups) {
    const dg = block('DG', versionNumber >= 320 ? 28 : 24);
    dg.v.setUint16(20, group.unsorted ? 2 : 1, true);
    dg.v.setUint16(22, group.recordIds ?? 0, true);
    linkTo(previousDg ?? hd.b, 4, dg.b);
    previousDg = dg.b;

    const cg = block('CG', versionNumber >= 330 ? 30 : 26);
    cg.v.setUint16(16, 1, true);
    cg.v.setUint16(18, group.channels.length, true);
    cg.v.setUint16(20, group.recordSize, true);
    cg.v.setUint32(22, group.cycleCount, true);
    linkTo(dg.b, 8, cg.b);
    if (group.unsorted) {
      const other = block('CG', versionNumber >= 330 ? 30 : 26);
      other.v.setUint16(16, 2, true);
      linkTo(cg.b, 4, other.b);
    }

    let previousCn: Block | null = null;
    for (const channel of group.channels) {
      const cn = block('CN', cnSize);
      linkTo(previousCn ?? cg.b, previousCn ? 4 : 8, cn.b);
      previousCn = cn.b;
      const conversionSpec = channel.conversion ?? (channel.unit ? { type: 65535 } : undefined);
      if (conversionSpec) linkTo(cn.b, 8, conversion(conversionSpec, channel.unit ?? ''));
      cn.v.setUint16(24, channel.master ? 1 : 0, true);
      if (channel.longName) linkTo(cn.b, 218, text(channel.name));
      else cn.b.bytes.set(ascii(channel.name).subarray(0, 31), 26);
      if (channel.displayName) linkTo(cn.b, 222, text(channel.displayName));
      const inExtraField = channel.additionalByteOffset === true;
      cn.v.setUint16(186, (inExtraField ? 0 : channel.byteOffset * 8) + (channel.bitOffset ?? 0), true);
      cn.v.setUint16(188, channel.bitCount, true);
      cn.v.setUint16(190, channel.dataType, true);
      if (inExtraField) cn.v.setUint16(226, channel.byteOffset, true);
    }

    // Records as stored: each with its record id before (and after, with 2 ids).
    const ids = group.recordIds ?? 0;
    const stride = group.recordSize + (ids > 0 ? 1 : 0) + (ids === 2 ? 1 : 0);
    const data = block(null, stride * group.cycleCount);
    for (let i = 0; i < group.cycleCount; i++) {
      const at = i * stride;
      if (ids > 0) data.b.bytes[at] = 1;
      data.b.bytes.set(group.records.subarray(i * group.recordSize, (i + 1) * group.recordSize), at + (ids > 0 ? 1 : 0));
      if (ids === 2) data.b.bytes[at + stride - 1] = 1;
    }
    if (group.cycleCount > 0) linkTo(dg.b, 16, data.b);
  }

  function conversion(c: Mdf3ConversionSpec, unit: string): Block {
    const values = c.values ?? [];
    const texts = c.texts ?? [];
    let body: Uint8Array;
    let count: number;
    const refs: { at: number; target: Block }[] = [];
    if (c.type === 10) {
      body = new Uint8Array(256);
      body.set(ascii(c.formula ?? ''));
      count = 0;
    } else if (c.type === 11) {
      count = values.length;
      body = new Uint8Array(40 * count);
      const v = new DataView(body.buffer);
      values.forEach((key, i) => {
        v.setFloat64(40 * i, key, true);
        body.set(new TextEncoder().encode(texts[i] ?? '').subarray(0, 31), 40 * i + 8);
      });
    } else if (c.type === 12) {
      count = values.length / 2 + 1;
      body = new Uint8Array(20 * count);
      const v = new DataView(body.buffer);
      for (let i = 0; i < count; i++) {
        if (i > 0) {
          v.setFloat64(20 * i, values[2 * (i - 1)], true);
          v.setFloat64(20 * i + 8, values[2 * (i - 1) + 1], true);
        }
        if (texts[i]) refs.push({ at: 46 + 20 * i + 16, target: text(texts[i]) });
      }
    } else {
      count = c.type === 1 || c.type === 2 ? values.length / 2 : values.length;
      body = new Uint8Array(8 * values.length);
      const v = new DataView(body.buffer);
      values.forEach((x, i) => v.setFloat64(8 * i, x, true));
    }
    const cc = block('CC', 46 + body.length);
    cc.b.bytes.set(new TextEncoder().encode(unit).subarray(0, 19), 22);
    cc.v.setUint16(42, c.type, true);
    cc.v.setUint16(44, count, true);
    cc.b.bytes.set(body, 46);
    cc.b.links.push(...refs);
    return cc.b;
  }

  // Lay out: the 64-byte IDBLOCK, then every block in order (MDF 3 needs no alignment), then patch the links.
  let at = 64;
  for (const b of blocks) {
    b.offset = at;
    at += b.bytes.length;
  }
  const out = new Uint8Array(at);
  const view = new DataView(out.buffer);
  out.set(ascii(`MDF     ${version.padEnd(8, ' ')}pitwall `));
  view.setUint16(24, spec.byteOrder ?? 0, true);
  view.setUint16(28, versionNumber, true);
  for (const b of blocks) {
    const o = b.offset ?? 0;
    out.set(b.bytes, o);
    for (const l of b.links) view.setUint32(o + l.at, l.target.offset ?? 0, true);
  }
  return out;
}

function ascii(text: string): Uint8Array {
  return Uint8Array.from(text, (c) => c.charCodeAt(0) & 0xff);
}
