import { BinaryView } from '../binary-view';
import { DataFileLimitError, DEFAULT_MAX_CHANNELS_PER_FILE, limitOption, UnsupportedFeatureError } from '../errors';
import { decodeRaw, type RecordField } from '../mdf4/mdf4-reader';
import { unescapeXml } from '../mdf4/blocks';
import { firstTxText, replaceHdComments } from '../xml-text';
import { type ChannelData, type ChannelInfo, type ChannelSource, type DataFile, emptyProperties, type FileProperties } from '../model';
import { assembleMdfFile, mdfChannelData, mdfChannelSource, mdfGroupTime, type MdfGroupTime, mdfReadTime } from '../mdf-file';
import { claimOnce, firstOverlap } from '../spans';
import { chain, link, type Mdf3Block, readBlock, TextBlocks, textField } from './blocks';
import { applyMdf3Conversion, type Mdf3Conversion, Conversions } from './conversion';

const FORMAT = 'mdf3';

/** Field offsets from the start of each block (the IDBLOCK's from the start of the file). */
const ID = { version: 8, byteOrder: 24, floatFormat: 26 } as const;
const HD = { firstDg: 4, comment: 8, date: 18, time: 28, author: 36, subject: 132, timestampNs: 164, size: 164, extendedSize: 208 } as const;
const DG = { next: 4, firstCg: 8, data: 16, recordIds: 22, size: 24 } as const;
const CG = { next: 4, firstCn: 8, recordSize: 20, cycleCount: 22, size: 26 } as const;
const CN = {
  next: 4, conversion: 8, dependency: 16, type: 24, shortName: 26, startBit: 186, bitCount: 188, dataType: 190,
  longName: 218, displayName: 222, extraByteOffset: 226, size: 218, longNameSize: 222, displayNameSize: 228,
} as const;

interface Mdf3Channel {
  name: string;
  unit: string;
  isMaster: boolean;
  /** The MDF 3 data type code (0..16) as stored. */
  storedType: number;
  /** The same field in MDF 4 terms (0..5: uint, int, float in little- then big-endian), for the shared record decoder. */
  field: RecordField;
  conversion: Mdf3Conversion;
  unsupported?: string;
}

interface Mdf3Group {
  /** Bytes from one record to the next: record ids included. */
  stride: number;
  cycleCount: number;
  /** Offset of the first record in the file. */
  data: number;
  master: Mdf3Channel | null;
  channels: Mdf3Channel[];
  unsupported?: string;
  time?: MdfGroupTime;
}

/** An MDF file (see isMdfFile) of a version before 4: 3.00 to 3.30 are read here, older ones refused by this reader. */
export function isPreMdf4File(bytes: Uint8Array): boolean {
  return bytes.length >= 9 && bytes[8] !== 0x34; // "4"
}

export function readMdf3File(bytes: Uint8Array, options: { maxChannels?: number } = {}): DataFile {
  const bin = new BinaryView(bytes, FORMAT);
  bin.require(0, 64, 'identification block');
  const id = bin.latin1(0, 8);
  const version = bin.latin1(ID.version, 8);
  if (id === 'UnFinMF') throw new UnsupportedFeatureError(FORMAT, 'unfinalised MDF file');
  if (!version.startsWith('3.')) throw new UnsupportedFeatureError(FORMAT, `MDF version ${version || 'unknown'} (MDF 3.x and 4.x are read)`);
  // The IDBLOCK byte order is the default of the signal values (data types 0 to 3); blocks are little-endian.
  const bigEndianDefault = bin.u16(ID.byteOrder) !== 0;
  const ieeeFloats = bin.u16(ID.floatFormat) === 0;

  const hd = readBlock(bin, 64, 'HD', HD.size);
  const texts = new TextBlocks(bin);
  const properties = readProperties(bin, hd, texts);
  const layout: Layout = { bigEndianDefault, ieeeFloats, texts, conversions: new Conversions(bin, texts) };
  const groups = readGroups(bin, link(bin, hd.offset + HD.firstDg), layout, limitOption('maxChannels', options.maxChannels ?? DEFAULT_MAX_CHANNELS_PER_FILE));

  return assembleMdfFile(FORMAT, properties, groups, { timeOf: (group) => groupTime(bin, group), sourceOf: (group, channel, name) => channelSource(bin, group, channel, name) });
}

interface Layout {
  bigEndianDefault: boolean;
  ieeeFloats: boolean;
  texts: TextBlocks;
  conversions: Conversions;
}

function readProperties(bin: BinaryView, hd: Mdf3Block, texts: TextBlocks): FileProperties {
  const properties = emptyProperties();
  const at = hd.offset;
  const timestampNs = hd.size >= HD.extendedSize ? bin.u64Value(at + HD.timestampNs) : 0;
  if (timestampNs > 0) {
    // 3.20 and later: nanoseconds since 1970 UTC (asammdf reads it so; the UTC offset beside it only says the zone).
    properties.outingTime = new Date(timestampNs / 1e6).toISOString();
  } else {
    // Before 3.20 only "DD:MM:YYYY" and "HH:MM:SS", local time.
    const date = /^(\d\d):(\d\d):(\d{4})$/.exec(textField(bin, at + HD.date, 10));
    const time = /^(\d\d):(\d\d):(\d\d)$/.exec(textField(bin, at + HD.time, 8));
    if (date && time) properties.outingTime = `${date[3]}-${date[2]}-${date[1]}T${time[1]}:${time[2]}:${time[3]}`;
  }
  // The subject field is the measured object ("e.g. vehicle information", says the standard).
  properties.carId = textField(bin, at + HD.subject, 32) || null;
  properties.comment = commentText(texts.read(link(bin, at + HD.comment))) || null;
  return properties;
}

/**
 * MDF 3 comments are plain text, but asammdf writes MDF 4's `<HDcomment>` XML into them, at times one nested (escaped)
 * in the `<TX>` of another: each element stands for the text of its `<TX>`.
 */
function commentText(comment: string): string {
  let text = comment;
  for (let depth = 0; depth < 4 && text.includes('<HDcomment'); depth++) {
    text = replaceHdComments(text, (element) => {
      const tx = firstTxText(element);
      return tx !== undefined ? unescapeXml(tx) : '';
    });
  }
  return text.trim();
}

/**
 * The file's channel groups. Each data group's channel groups and records are its own: a data group reaching another's
 * CGBLOCK, or whose records overlap another's, is refused as corrupt. So the records of all groups add up to at most
 * the file's bytes, and decoding every group's master at open costs in proportion to the file, not to the number of
 * groups times their records.
 */
function readGroups(bin: BinaryView, firstDg: number, layout: Layout, maxChannels: number): Mdf3Group[] {
  const groups: Mdf3Group[] = [];
  // Channels of every group so far: one more than maxChannels stops the reading before it is parsed.
  const counted = { channels: 0, max: maxChannels };
  // Refused where the chains meet: data groups sharing a chain of n channel groups would otherwise read it n times.
  const claimCg = claimOnce((cg, first, second) => bin.corrupt(`the data groups at ${first} and ${second} share the CGBLOCK at ${cg}`, cg));
  const spans: { offset: number; length: number; dg: number }[] = [];
  for (const dg of chain(bin, firstDg, 'DG', DG.size)) {
    const recordIds = bin.u16(dg.offset + DG.recordIds);
    const cgs: Mdf3Block[] = [];
    for (const cg of chain(bin, link(bin, dg.offset + DG.firstCg), 'CG', CG.size)) {
      claimCg(cg.offset, dg.offset);
      cgs.push(cg);
    }
    const unsupported =
      cgs.length > 1 ? 'unsorted data groups (several channel groups in one data group)' : recordIds > 2 ? `${recordIds} record ids per record` : undefined;
    for (const cg of cgs) {
      const group = readGroup(bin, cg, link(bin, dg.offset + DG.data), recordIds, unsupported, layout, counted);
      // Only a readable group's records are decoded.
      if (!group.unsupported && group.cycleCount > 0) spans.push({ offset: group.data, length: group.cycleCount * group.stride, dg: dg.offset });
      groups.push(group);
    }
  }
  refuseSharedRecords(bin, spans);
  return groups;
}

/** The groups' records must lie apart. */
function refuseSharedRecords(bin: BinaryView, spans: { offset: number; length: number; dg: number }[]): void {
  const overlap = firstOverlap(spans);
  if (!overlap) return;
  const [before, span] = overlap;
  throw bin.corrupt(`the records of the data group at ${span.dg} (from byte ${span.offset}) overlap those of the data group at ${before.dg} (bytes ${before.offset} to ${before.offset + before.length})`, span.dg + DG.data);
}

function readGroup(bin: BinaryView, cg: Mdf3Block, data: number, recordIds: number, unsupported: string | undefined, layout: Layout, counted: { channels: number; max: number }): Mdf3Group {
  const cycleCount = bin.u32(cg.offset + CG.cycleCount);
  const recordSize = bin.u16(cg.offset + CG.recordSize);
  // A sorted group's records may carry their (single) record id: one byte before, and with 2 ids one after.
  const before = recordIds > 0 ? 1 : 0;
  const stride = recordSize + before + (recordIds === 2 ? 1 : 0);
  if (!unsupported && cycleCount > 0) {
    if (recordSize === 0) throw bin.corrupt(`${cycleCount} records of 0 bytes`, cg.offset + CG.cycleCount);
    if (data === 0) throw bin.corrupt(`${cycleCount} records but no data block`, cg.offset + CG.cycleCount);
    // Checked before any record is decoded: the file must hold every declared record (MDF 3 data has no block header).
    if (cycleCount * stride > bin.length - data) throw bin.corrupt(`${cycleCount} records of ${stride} bytes run past the end of the file (${bin.length} bytes)`, cg.offset + CG.cycleCount);
  }
  const group: Mdf3Group = { stride, cycleCount, data, master: null, channels: [], ...(unsupported ? { unsupported } : {}) };
  for (const cn of chain(bin, link(bin, cg.offset + CG.firstCn), 'CN', CN.size)) {
    if (++counted.channels > counted.max) throw new DataFileLimitError(FORMAT, 'channels', counted.max, counted.channels);
    const channel = readChannel(bin, cn, recordSize, before, layout);
    if (channel.isMaster && !group.master) group.master = channel;
    else group.channels.push(channel);
  }
  return group;
}

/** MDF 3 data types as MDF 4 ones: [unsigned, signed, float] by byte order; null for types that are not numbers. */
function fieldType(storedType: number, bigEndianDefault: boolean): number | null {
  const kinds: Record<number, [kind: 0 | 1 | 2, big: boolean]> = {
    0: [0, bigEndianDefault], 1: [1, bigEndianDefault], 2: [2, bigEndianDefault], 3: [2, bigEndianDefault],
    9: [0, true], 10: [1, true], 11: [2, true], 12: [2, true],
    13: [0, false], 14: [1, false], 15: [2, false], 16: [2, false],
  };
  const entry = kinds[storedType];
  return entry ? 2 * entry[0] + (entry[1] ? 1 : 0) : null;
}

const TYPE_FEATURES: Record<number, string> = {
  4: 'VAX floating-point channels', 5: 'VAX floating-point channels', 6: 'VAX floating-point channels', 7: 'string channels', 8: 'byte-array channels',
};

function readChannel(bin: BinaryView, cn: Mdf3Block, recordSize: number, idBytes: number, layout: Layout): Mdf3Channel {
  const at = cn.offset;
  const shortName = textField(bin, at + CN.shortName, 32);
  const longName = cn.size >= CN.longNameSize ? layout.texts.read(link(bin, at + CN.longName)) : '';
  // The long name (3.x, in a TXBLOCK) is the channel's name when there is one, as asammdf reads it; the display name
  // (3.00 and later) is only a fallback for a channel named neither way.
  const displayName = cn.size >= CN.displayNameSize && !longName && !shortName ? layout.texts.read(link(bin, at + CN.displayName)) : '';
  const startBit = bin.u16(at + CN.startBit);
  const extraBytes = cn.size >= CN.displayNameSize ? bin.u16(at + CN.extraByteOffset) : 0;
  const bitCount = bin.u16(at + CN.bitCount);
  const storedType = bin.u16(at + CN.dataType);
  const { conversion, unit } = layout.conversions.read(link(bin, at + CN.conversion));
  const type = fieldType(storedType, layout.bigEndianDefault);
  const field: RecordField = { dataType: type ?? 0, byteOffset: idBytes + extraBytes + (startBit >>> 3), bitOffset: startBit & 7, bitCount };
  const channel: Mdf3Channel = { name: longName || shortName || displayName, unit, isMaster: bin.u16(at + CN.type) === 1, storedType, field, conversion };
  const unsupported =
    link(bin, at + CN.dependency) !== 0
      ? 'channel dependencies (CDBLOCK arrays and compositions)'
      : type === null
        ? TYPE_FEATURES[storedType] ?? `data type ${storedType}`
        : type >= 4 && (storedType === 2 || storedType === 3) && !layout.ieeeFloats
          ? 'non-IEEE floating-point format (IDBLOCK)'
          : conversion.kind === 'unsupported'
            ? conversion.feature
            : undefined;
  if (unsupported) return { ...channel, unsupported };
  const isFloat = type !== null && type >= 4;
  if (isFloat ? ![16, 32, 64].includes(bitCount) : bitCount < 1 || bitCount > 64) {
    throw bin.corrupt(`${bitCount}-bit ${isFloat ? 'float' : 'integer'} channel`, at + CN.bitCount);
  }
  if (isFloat && field.bitOffset !== 0) throw bin.corrupt('float channel not on a byte boundary', at + CN.startBit);
  if (extraBytes + (startBit >>> 3) + Math.ceil(((startBit & 7) + bitCount) / 8) > recordSize) throw bin.corrupt('channel lies outside its record', at + CN.startBit);
  return channel;
}

function records(bin: BinaryView, group: Mdf3Group): Uint8Array {
  return bin.bytes.subarray(group.data, group.data + group.cycleCount * group.stride);
}

function groupTime(bin: BinaryView, group: Mdf3Group): MdfGroupTime {
  const master = group.master;
  return mdfGroupTime(
    FORMAT,
    group,
    master && !master.unsupported
      ? (timestamps) => {
          decodeRaw(records(bin, group), group.stride, group.cycleCount, master.field, timestamps);
          applyMdf3Conversion(master.conversion, timestamps, master.field.dataType < 4);
        }
      : null,
  );
}

function channelSource(bin: BinaryView, group: Mdf3Group, channel: Mdf3Channel, name: string): ChannelSource {
  return mdfChannelSource(FORMAT, name, group, channel, {
    layout: { dimension: 1 },
    dataType: dataTypeName(channel),
    timeOf: () => groupTime(bin, group),
    read: (info) => decodeChannel(bin, group, channel, info),
  });
}

const STORED_TYPE_NAMES: Record<number, string> = { 4: 'vax-float', 5: 'vax-float', 6: 'vax-float', 7: 'string', 8: 'bytes' };

function dataTypeName(c: Mdf3Channel): string {
  const type = fieldType(c.storedType, false);
  if (type === null) return STORED_TYPE_NAMES[c.storedType] ?? `type ${c.storedType}`;
  return `${type >= 4 ? 'float' : type >= 2 ? 'int' : 'uint'}${c.field.bitCount}`;
}

function decodeChannel(bin: BinaryView, group: Mdf3Group, channel: Mdf3Channel, info: ChannelInfo): ChannelData {
  const n = group.cycleCount;
  const time = mdfReadTime(group, () => groupTime(bin, group));
  const raw = new Float64Array(n);
  if (n > 0) decodeRaw(records(bin, group), group.stride, n, channel.field, raw);
  const isFloat = channel.field.dataType >= 4;
  applyMdf3Conversion(channel.conversion, raw, !isFloat);
  return mdfChannelData(info, time, raw, { conversion: channel.conversion, isFloat, bitCount: channel.field.bitCount });
}
