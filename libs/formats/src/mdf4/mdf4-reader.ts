import { BinaryView } from '../binary-view';
import { CorruptDataFileError, DataFileLimitError, type DecompressionLimits, DEFAULT_DECOMPRESSION_LIMITS, DEFAULT_MAX_CHANNELS_PER_FILE, limitOption, UnsupportedFeatureError } from '../errors';
import { halfToNumber } from '../float16';
import {
  type ChannelData,
  type ChannelInfo,
  type ChannelSource,
  type DataFile,
  type EventData,
  type EventKind,
  emptyProperties,
  fieldName,
  type FileProperties,
  type SampleArray,
} from '../model';
import { assembleMdfFile, mdfChannelData, mdfChannelSource, mdfGroupTime, type MdfGroupTime, mdfReadTime } from '../mdf-file';
import { chain, type Mdf4Block, perFile, readBlock, readMetadata, readText, unescapeXml } from './blocks';
import { commonProperties, firstTxText } from '../xml-text';
import { type ArrayLayout, MAX_STRUCTURE_DEPTH, readComposition, structureFields } from './composition';
import { applyConversion, type Conversion, readConversion } from './conversion';
import { DataClaims, type DataLeaves, dataLeaves, readRecords } from './data-blocks';
import { decodeEventValues, eventKindOf } from './text-channels';
import { type Finalisation, finalisation, notFinalised } from './unfinalised';
import { compact, decodeIndexed, type IndexedRecords, indexedRecords, indexRecords, type RecordIndex, type RecordKind } from './unsorted';
import { claimOnce } from '../spans';

const FORMAT = 'mdf4';

/** "MDF     " file id; "UnFinMF " marks a file whose writer never finalised it. */
export function isMdfFile(bytes: Uint8Array): boolean {
  const id = String.fromCharCode(...bytes.subarray(0, 8));
  return id === 'MDF     ' || id === 'UnFinMF ';
}

const HD = { startTimeNs: 0, tzOffsetMin: 8, dstOffsetMin: 10, timeFlags: 12 } as const;
const CG = { recordId: 0, cycleCount: 8, flags: 16, dataBytes: 24, invalBytes: 28 } as const;
const CN = { type: 0, sync: 1, dataType: 2, bitOffset: 3, byteOffset: 4, bitCount: 8, flags: 12, invalBitPos: 16 } as const;

interface Mdf4Channel {
  name: string;
  unit: string;
  cnType: number;
  /** cn_sync_type: 0 none, 1 time, 2 angle, 3 distance, 4 index. */
  sync: number;
  dataType: number;
  bitOffset: number;
  byteOffset: number;
  bitCount: number;
  flags: number;
  invalBitPos: number;
  conversion: Conversion;
  unsupported?: string;
  /** Text and byte channels: read as events. */
  kind?: EventKind;
  /** cn_data: a VLSD channel's signal data. */
  dataLink: number;
  /** An array channel (##CA) of values in the record. */
  array?: ArrayLayout;
  /** A structure's first field (##CN): the fields are channels of their own, named `channel.field`. */
  structure?: number;
}

interface Mdf4Group {
  recordSize: number;
  dataBytes: number;
  cycleCount: number;
  data: DataLeaves | null;
  /** Of an unsorted data group: where its records lie among the others', and its record id. */
  unsorted?: { index: RecordIndex; recordId: number };
  master: Mdf4Channel | null;
  channels: Mdf4Channel[];
  unsupported?: string;
  records?: Uint8Array | IndexedRecords;
  time?: MdfGroupTime;
}

export interface Mdf4ReadOptions {
  maxChannels?: number;
  /** How far the file's `##DZ` blocks may decompress together (default DEFAULT_DECOMPRESSION_LIMITS). */
  decompression?: DecompressionLimits;
}

export function readMdf4File(bytes: Uint8Array, options: Mdf4ReadOptions = {}): DataFile {
  const bin = new BinaryView(bytes, FORMAT);
  bin.require(0, 64, 'identification block');
  const id = bin.latin1(0, 8);
  const version = bin.latin1(8, 8);
  if (!version.startsWith('4.')) throw new UnsupportedFeatureError(FORMAT, `MDF version ${version || 'unknown'}`);

  const hd = readBlock(bin, 64, ['HD']);
  const properties = readProperties(bin, hd);
  const firstDg = hd.links[0] ?? 0;
  const finalise = id === 'UnFinMF' ? finalisation(bin, firstDg) : undefined;
  const groups = withFinalisation(finalise, () => readGroups(bin, firstDg, limitOption('maxChannels', options.maxChannels ?? DEFAULT_MAX_CHANNELS_PER_FILE), options.decompression ?? DEFAULT_DECOMPRESSION_LIMITS, finalise));

  return assembleMdfFile(FORMAT, properties, groups, { timeOf: (group) => groupTime(bin, group), sourceOf: (group, channel, name) => channelSource(bin, group, channel, name) });
}

function readProperties(bin: BinaryView, hd: ReturnType<typeof readBlock>): FileProperties {
  const properties = emptyProperties();
  if (hd.dataLength >= 16) {
    const ns = bin.u64Value(hd.data + HD.startTimeNs);
    const local = (bin.u8(hd.data + HD.timeFlags) & 1) === 1;
    const iso = new Date(ns / 1e6).toISOString();
    properties.outingTime = local ? iso.slice(0, -1) : iso;
  }
  const xml = readMetadata(bin, hd.links[5] ?? 0);
  const tx = firstTxText(xml);
  properties.comment = (tx !== undefined ? unescapeXml(tx).trim() : xml.startsWith('<') ? '' : xml.trim()) || null;
  // Common properties carry whatever names the writer chose; the usual spellings map onto the model.
  const names: Record<string, Exclude<keyof FileProperties, 'runNumber' | 'outingTime' | 'comment'> | 'runNumber'> = {
    event: 'eventName', eventname: 'eventName', session: 'sessionName', sessionname: 'sessionName', run: 'runNumber', runnumber: 'runNumber',
    driver: 'driverName', drivername: 'driverName', venue: 'venueName', track: 'venueName', circuit: 'venueName', vehicle: 'carId', car: 'carId', carid: 'carId',
  };
  for (const [name, text] of commonProperties(xml)) {
    // Own keys only: a property named constructor or __proto__ is not one of these.
    const spelling = name.toLowerCase().replace(/[\s_]/g, '');
    const key = Object.hasOwn(names, spelling) ? names[spelling] : undefined;
    const value = unescapeXml(text).trim();
    if (!key || !value) continue;
    if (key === 'runNumber') properties.runNumber = Number.isFinite(Number(value)) ? Number(value) : null;
    else properties[key] = value;
  }
  return properties;
}

/** An unfinalised file whose data cannot be recovered is refused as not finalised by its logger, with the reason. */
function withFinalisation<T>(finalise: Finalisation | undefined, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (!finalise || !(error instanceof CorruptDataFileError) || /not finalised/.test(error.reason)) throw error;
    throw notFinalised(`its data could not be recovered: ${error.reason}`, error.offset);
  }
}

/**
 * The file's channel groups. Each data group's data blocks, then its channel groups, are its own: a group listing
 * blocks another lists (or whose blocks overlap another's), or reaching another's ##CG, is refused as corrupt. So
 * the records of all groups add up to at most the file's bytes (and what its ##DZ blocks may unpack to), and decoding
 * every group's master at open costs in proportion to the file, not to the number of groups times their records.
 */
function readGroups(bin: BinaryView, firstDg: number, maxChannels: number, decompression: DecompressionLimits, finalise: Finalisation | undefined): Mdf4Group[] {
  const groups: Mdf4Group[] = [];
  // Channels of every group so far: one more than maxChannels stops the reading before it is parsed.
  const counted = { channels: 0, max: maxChannels };
  const budget = decompressionBudget(bin, decompression);
  // Every group's data listed and set apart first, before any is unpacked (an unsorted group's is, to index it).
  const claims = new DataClaims(bin);
  const dgs = [...chain(bin, firstDg, 'DG')].map((dg) => {
    claims.group = dg.offset;
    const data = dataLeaves(bin, dg.links[2] ?? 0, finalise, claims);
    budget(data);
    return { dg, data };
  });
  claims.refuseOverlaps();
  // Refused where the chains meet: data groups sharing a chain of n channel groups would otherwise read it n times.
  const claimCg = claimOnce((cg, first, second) => bin.corrupt(`the data groups at ${first} and ${second} share the channel group at ${cg}`, cg));
  for (const { dg, data } of dgs) {
    const recIdSize = dg.dataLength >= 1 ? bin.u8(dg.data) : 0;
    const all: Mdf4Block[] = [];
    for (const cg of chain(bin, dg.links[1] ?? 0, 'CG')) {
      claimCg(cg.offset, dg.offset);
      all.push(cg);
    }
    const cgs = all.filter((cg) => (bin.u16(cg.data + CG.flags) & 1) === 0);
    const index = recIdSize !== 0 || all.length > 1 ? unsortedIndex(bin, dg, recIdSize, all, data, finalise) : undefined;
    for (const cg of cgs) groups.push(readGroup(bin, cg, data, index, counted, finalise));
  }
  return groups;
}

/**
 * An unsorted data group (records of several channel groups told apart by their record ids): its data unpacked and
 * indexed once, at open, since every group's cycle count and master are needed for the catalogue.
 */
function unsortedIndex(bin: BinaryView, dg: ReturnType<typeof readBlock>, recIdSize: number, cgs: ReturnType<typeof readBlock>[], data: DataLeaves, finalise: Finalisation | undefined): RecordIndex {
  if (recIdSize === 0) throw bin.corrupt(`data group has ${cgs.length} channel groups but no record ids to tell their records apart`, dg.data);
  // The groups' records share the data: checked together, not each alone (3,000 groups of a million records each over
  // 3 MB asked for 12 GB of position lists before the records were counted).
  let needed = 0;
  const kinds: RecordKind[] = cgs.map((cg) => {
    if (cg.dataLength < 32) throw bin.corrupt('##CG data section is too short', cg.data);
    const vlsd = (bin.u16(cg.data + CG.flags) & 1) === 1;
    const expected = finalise?.cycleCounts ? 0 : bin.u64Value(cg.data + CG.cycleCount);
    const recordId = bin.u64Value(cg.data + CG.recordId);
    if (vlsd) return { recordId, recordSize: undefined, expected };
    // Up to 2^33 - 2 bytes (two u32s): held as a Number, as a sorted group's, and checked as it is before any indexing.
    const recordSize = bin.u32(cg.data + CG.dataBytes) + bin.u32(cg.data + CG.invalBytes);
    if (expected * (recIdSize + recordSize) > data.size) {
      throw bin.corrupt(`data blocks hold ${data.size} bytes, ${expected} records of channel group ${recordId} (${recordSize} bytes each after a ${recIdSize}-byte record id) need more`, cg.data + CG.cycleCount);
    }
    needed += expected * (recIdSize + recordSize);
    if (needed > data.size) {
      throw bin.corrupt(`data blocks hold ${data.size} bytes, the records its channel groups declare up to group ${recordId} need ${needed}`, cg.data + CG.cycleCount);
    }
    return { recordId, recordSize, expected };
  });
  return indexRecords(bin, readRecords(bin, data), recIdSize, kinds, finalise?.partialTail ?? false, dg.links[2] ?? dg.offset);
}

/**
 * Counts the bytes the file's `##DZ` blocks declare they unpack to, as each data group's list is read: past the budget
 * the file is refused at open, before any block is decompressed (each block then stops at its declared length).
 */
function decompressionBudget(bin: BinaryView, limits: DecompressionLimits): (data: DataLeaves) => void {
  const max = Math.min(limits.maxBytes, limits.maxRatio * bin.length);
  let total = 0;
  return (data) => {
    total += data.decompressed;
    if (total > max) throw new DataFileLimitError(FORMAT, 'decompressed bytes', max, total);
  };
}

function readGroup(
  bin: BinaryView,
  cg: ReturnType<typeof readBlock>,
  data: DataLeaves,
  index: RecordIndex | undefined,
  counted: { channels: number; max: number },
  finalise: Finalisation | undefined,
): Mdf4Group {
  if (cg.dataLength < 32) throw bin.corrupt('##CG data section is too short', cg.data);
  const flags = bin.u16(cg.data + CG.flags);
  const dataBytes = bin.u32(cg.data + CG.dataBytes);
  const recordSize = dataBytes + bin.u32(cg.data + CG.invalBytes);
  const recordId = bin.u64Value(cg.data + CG.recordId);
  const cycleCount = groupCycleCount(bin, cg, data, index?.positions.get(recordId)?.length, recordSize, finalise);
  if (recordSize === 0 && cycleCount > 0) throw bin.corrupt(`${cycleCount} records of 0 bytes`, cg.data + CG.cycleCount);
  const unsupported = flags & 2 ? 'bus logging (bus event channel groups)' : flags & 8 ? 'remote master' : undefined;
  if (!unsupported && !index && cycleCount * recordSize > data.size) {
    // Checked before any record buffer is allocated: the data blocks must hold every declared record (an unsorted
    // group's, behind their record ids, are checked so before its data group is indexed: unsortedIndex).
    throw bin.corrupt(`data blocks hold ${data.size} bytes, ${cycleCount} records of ${recordSize} bytes need more`, cg.data + CG.cycleCount);
  }
  const group: Mdf4Group = {
    recordSize,
    dataBytes,
    cycleCount,
    data,
    ...(index ? { unsorted: { index, recordId } } : {}),
    master: null,
    channels: [],
    ...(unsupported ? { unsupported } : {}),
  };
  const seen = new Set<number>();
  const read: { channel: Mdf4Channel; fields: Mdf4Channel[] }[] = [];
  for (const cn of chain(bin, cg.links[1] ?? 0, 'CN')) {
    if (++counted.channels > counted.max) throw new DataFileLimitError(FORMAT, 'channels', counted.max, counted.channels);
    seen.add(cn.offset);
    const channel = readChannel(bin, cn, dataBytes);
    read.push({ channel, fields: isMaster(channel) ? [] : fieldsOf(bin, channel, dataBytes, counted, seen, 1) });
  }
  // The time base is the master synchronised on time; without one, the first master (of any sync type, as written by
  // loggers that leave it 0). Another master (a distance or angle axis beside the time) is a channel like the rest.
  const master = read.find(({ channel }) => isMaster(channel) && channel.sync === 1) ?? read.find(({ channel }) => isMaster(channel));
  group.master = master?.channel ?? null;
  for (const { channel, fields } of read) if (channel !== group.master) appendChannels(group.channels, channel, fields);
  return group;
}

/** A master channel (cn_type 2) or a virtual one (3, its values the record index). */
const isMaster = (channel: Mdf4Channel): boolean => channel.cnType === 2 || channel.cnType === 3;

/** A structure's fields, and their fields, as channels named `structure.field` (each counted as a channel). */
function fieldsOf(bin: BinaryView, parent: Mdf4Channel, dataBytes: number, counted: { channels: number; max: number }, seen: Set<number>, depth: number): Mdf4Channel[] {
  if (parent.structure === undefined) return [];
  if (depth > MAX_STRUCTURE_DEPTH) throw bin.corrupt(`structures nested deeper than ${MAX_STRUCTURE_DEPTH}`, parent.structure);
  const fields: Mdf4Channel[] = [];
  for (const cn of structureFields(bin, parent.structure, seen)) {
    if (++counted.channels > counted.max) throw new DataFileLimitError(FORMAT, 'channels', counted.max, counted.channels);
    const field = readChannel(bin, cn, dataBytes);
    field.name = fieldName(parent.name, field.name);
    appendChannels(fields, field, fieldsOf(bin, field, dataBytes, counted, seen, depth + 1));
  }
  return fields;
}

/** A channel then its fields, one by one: a structure may have as many fields as maxChannels (too many to spread into push's arguments). */
function appendChannels(to: Mdf4Channel[], channel: Mdf4Channel, fields: readonly Mdf4Channel[]): void {
  to.push(channel);
  for (const field of fields) to.push(field);
}

/**
 * Records of a channel group: as its ##CG declares (an unsorted group's index must hold them all), or, in an unfinalised
 * file, as many as the data holds (whole records of a sorted group's data; the records its index found).
 */
function groupCycleCount(bin: BinaryView, cg: ReturnType<typeof readBlock>, data: DataLeaves, found: number | undefined, recordSize: number, finalise: Finalisation | undefined): number {
  if (finalise?.cycleCounts) return found ?? (recordSize > 0 ? Math.floor(data.size / recordSize) : 0);
  const declared = bin.u64(cg.data + CG.cycleCount, 'cycle count');
  if (found !== undefined && declared > found) throw bin.corrupt(`the data holds ${found} records of channel group ${bin.u64Value(cg.data + CG.recordId)}, its ##CG declares ${declared}`, cg.data + CG.cycleCount);
  return declared;
}

const DATA_TYPE_FEATURES: Record<number, string> = {
  6: 'string channels', 7: 'string channels', 8: 'string channels', 9: 'string channels', 10: 'byte-array channels', 11: 'MIME sample channels',
  12: 'MIME stream channels', 13: 'CANopen date channels', 14: 'CANopen time channels', 15: 'complex number channels', 16: 'complex number channels',
};
const CN_TYPE_FEATURES: Record<number, string> = { 1: 'VLSD (variable-length signal data)', 5: 'maximum-length channels', 6: 'virtual data channels' };

function readChannel(bin: BinaryView, cn: ReturnType<typeof readBlock>, dataBytes: number): Mdf4Channel {
  if (cn.dataLength < 24) throw bin.corrupt('##CN data section is too short', cn.data);
  const [, compositionLink = 0, nameLink = 0, , ccLink = 0, dataLink = 0, unitLink = 0] = cn.links;
  const cnType = bin.u8(cn.data + CN.type);
  const dataType = bin.u8(cn.data + CN.dataType);
  const bitOffset = bin.u8(cn.data + CN.bitOffset);
  const byteOffset = bin.u32(cn.data + CN.byteOffset);
  const bitCount = bin.u32(cn.data + CN.bitCount);
  const { conversion, unit: ccUnit } = conversionOf(bin, ccLink);
  const channel: Mdf4Channel = {
    name: readText(bin, nameLink),
    unit: readText(bin, unitLink) || ccUnit,
    cnType,
    sync: bin.u8(cn.data + CN.sync),
    dataType,
    bitOffset,
    byteOffset,
    bitCount,
    flags: bin.u32(cn.data + CN.flags),
    invalBitPos: bin.u32(cn.data + CN.invalBitPos),
    conversion,
    dataLink,
  };
  const composition = readComposition(bin, compositionLink);
  if (composition.kind === 'structure') channel.structure = composition.firstField;
  if (composition.kind === 'array') channel.array = composition.layout;
  const kind = eventKindOf(dataType);
  if (kind && (cnType === 0 || cnType === 1) && composition.kind !== 'array') return textChannel(bin, cn, { ...channel, kind }, dataBytes);
  const unsupported =
    composition.kind === 'unsupported'
      ? composition.feature
      : CN_TYPE_FEATURES[cnType] ?? DATA_TYPE_FEATURES[dataType] ?? (dataType > 16 ? `data type ${dataType}` : conversion.kind === 'unsupported' ? conversion.feature : undefined);
  if (unsupported) return { ...channel, unsupported };
  if (cnType === 3) return channel; // virtual master: values come from the record index, nothing is stored
  const isFloat = dataType === 4 || dataType === 5;
  if (isFloat ? ![16, 32, 64].includes(bitCount) : bitCount < 1 || bitCount > 64) {
    throw bin.corrupt(`${bitCount}-bit ${isFloat ? 'float' : 'integer'} channel`, cn.data + CN.bitCount);
  }
  const lastElement = channel.array ? (channel.array.shape.reduce((a, b) => a * b, 1) - 1) * channel.array.stride : 0;
  if (Math.min(byteOffset, byteOffset + lastElement) < 0 || Math.max(byteOffset, byteOffset + lastElement) + Math.ceil((bitOffset + bitCount) / 8) > dataBytes) {
    throw bin.corrupt('channel lies outside its record', cn.data + CN.byteOffset);
  }
  return channel;
}

/**
 * A channel's conversion, each ##CC parsed once per file (MDF 3's Conversions does the same): channels may share one
 * value-to-text table of 65,535 entries. The parsed conversion is frozen, since every channel sharing it (and their
 * catalogue entries, through its labels) hold the same object.
 */
function conversionOf(bin: BinaryView, offset: number): { conversion: Conversion; unit: string } {
  return parsedConversion(bin, offset, () => frozen(readConversion(bin, offset)));
}

const parsedConversion = perFile<{ conversion: Conversion; unit: string }>();

/** Freezes a parsed conversion: its fields, its arrays of numbers and its labels (a compiled formula is left as it is). */
function frozen(parsed: { conversion: Conversion; unit: string }): { conversion: Conversion; unit: string } {
  for (const value of Object.values(parsed.conversion)) {
    if (!Array.isArray(value)) continue;
    for (const element of value) if (typeof element === 'object' && element !== null) Object.freeze(element);
    Object.freeze(value);
  }
  Object.freeze(parsed.conversion);
  return Object.freeze(parsed);
}

/** A string or byte-array channel: its value fills whole bytes of the record, or (VLSD) the record holds a u64 offset. */
function textChannel(bin: BinaryView, cn: ReturnType<typeof readBlock>, channel: Mdf4Channel, dataBytes: number): Mdf4Channel {
  if (channel.cnType === 1 && channel.bitCount !== 64) throw bin.corrupt(`VLSD channel with a ${channel.bitCount}-bit offset`, cn.data + CN.bitCount);
  if (channel.bitOffset !== 0 || channel.bitCount % 8 !== 0 || channel.bitCount === 0) throw bin.corrupt(`${channel.kind} channel of ${channel.bitCount} bits at bit ${channel.bitOffset}`, cn.data + CN.bitCount);
  if (channel.byteOffset + channel.bitCount / 8 > dataBytes) throw bin.corrupt('channel lies outside its record', cn.data + CN.byteOffset);
  return channel;
}

/** A group's records back to back, unpacked once and kept; an unsorted group's, where its index says they lie. */
function records(bin: BinaryView, group: Mdf4Group): Uint8Array | IndexedRecords {
  if (group.unsorted) return (group.records ??= indexedRecords(group.unsorted.index, group.unsorted.recordId, group.cycleCount));
  if (!group.data) return new Uint8Array(0);
  return (group.records ??= readRecords(bin, group.data));
}

function groupTime(bin: BinaryView, group: Mdf4Group): MdfGroupTime {
  const master = group.master;
  return mdfGroupTime(
    FORMAT,
    group,
    master && !master.unsupported
      ? (timestamps) => {
          if (master.cnType === 3) for (let i = 0; i < group.cycleCount; i++) timestamps[i] = i;
          else decodeRaw(records(bin, group), group.recordSize, group.cycleCount, master, timestamps);
          applyConversion(master.conversion, timestamps, master.dataType < 4, master.name || 'the master channel');
        }
      : null,
  );
}

function channelSource(bin: BinaryView, group: Mdf4Group, channel: Mdf4Channel, name: string): ChannelSource {
  return mdfChannelSource(FORMAT, name, group, channel, {
    layout: {
      dimension: channel.array ? channel.array.shape.reduce((a, b) => a * b, 1) : 1,
      ...(channel.array ? { shape: [...channel.array.shape] } : {}),
      ...(channel.kind ? { kind: channel.kind } : {}),
    },
    dataType: dataTypeName(channel),
    timeOf: () => groupTime(bin, group),
    read: (info) => decodeChannel(bin, group, channel, info),
    ...(channel.kind ? { readEvents: (info: ChannelInfo) => decodeEvents(bin, group, channel, info) } : {}),
  });
}

/** The values of a text or byte channel as events on the group's time base. */
function decodeEvents(bin: BinaryView, group: Mdf4Group, channel: Mdf4Channel, info: ChannelInfo): EventData {
  const n = group.cycleCount;
  const time = mdfReadTime(group, () => groupTime(bin, group));
  const data = n === 0 ? new Uint8Array(0) : records(bin, group);
  const byteCount = channel.bitCount / 8;
  // An unsorted group's values are first gathered from where its records lie, back to back.
  const inRecords = data instanceof Uint8Array;
  const layout = { dataType: channel.dataType, cnType: channel.cnType, byteOffset: inRecords ? channel.byteOffset : 0, byteCount, dataLink: channel.dataLink };
  const { offsets, bytes } = decodeEventValues(bin, inRecords ? data : compact(data, channel.byteOffset, byteCount), inRecords ? group.recordSize : byteCount, n, layout);
  const gaps = invalidation(data, group, channel, null, n);
  return {
    name: info.name,
    unit: info.unit,
    kind: channel.kind as EventKind,
    frequency: info.frequency,
    time,
    offsets,
    bytes,
    ...(gaps ? { gaps } : {}),
  };
}

function dataTypeName(c: Mdf4Channel): string {
  if (c.dataType === 4 || c.dataType === 5) return `float${c.bitCount}`;
  if (c.dataType <= 3) return `${c.dataType <= 1 ? 'uint' : 'int'}${c.bitCount}`;
  return STORED_TYPE_NAMES[c.dataType] ?? `type ${c.dataType}`;
}

/** What a catalogue entry's `dataType` says of a channel that is not numbers (its feature is why it cannot be read). */
const STORED_TYPE_NAMES: Record<number, string> = {
  6: 'string', 7: 'string', 8: 'string', 9: 'string', 10: 'bytes', 11: 'mime', 12: 'mime', 13: 'date', 14: 'time', 15: 'complex', 16: 'complex',
};

function decodeChannel(bin: BinaryView, group: Mdf4Group, channel: Mdf4Channel, info: ChannelInfo): ChannelData {
  const n = group.cycleCount;
  const time = mdfReadTime(group, () => groupTime(bin, group));
  const data = n === 0 ? new Uint8Array(0) : records(bin, group);
  const raw = new Float64Array(n * info.dimension);
  if (channel.cnType === 3) for (let i = 0; i < n; i++) raw[i] = i;
  else if (channel.array) decodeArray(data, group.recordSize, n, channel, channel.array, raw);
  else decodeRaw(data, group.recordSize, n, channel, raw);
  const isFloat = channel.dataType === 4 || channel.dataType === 5;
  applyConversion(channel.conversion, raw, !isFloat, info.name);
  return mdfChannelData(info, time, raw, { conversion: channel.conversion, isFloat, bitCount: channel.bitCount }, (samples) => invalidation(data, group, channel, samples, n));
}

/** Invalidation bits (or the all-invalid flag) become gaps: the sample (each value of it) is NaN and its gap byte is 1. */
function invalidation(records: Uint8Array | IndexedRecords, group: Mdf4Group, channel: Mdf4Channel, samples: SampleArray | null, n: number): Uint8Array | undefined {
  const d = samples ? samples.length / Math.max(1, n) : 0;
  if (channel.flags & 1) {
    samples?.fill(NaN);
    return new Uint8Array(n).fill(1);
  }
  if (!(channel.flags & 2)) return undefined;
  let byte = group.dataBytes + (channel.invalBitPos >>> 3);
  const mask = 1 << (channel.invalBitPos & 7);
  if (byte >= group.recordSize) return undefined;
  const stride = records instanceof Uint8Array ? group.recordSize : 1;
  const data = records instanceof Uint8Array ? records : compact(records, byte, 1);
  if (!(records instanceof Uint8Array)) byte = 0;
  let gaps: Uint8Array | undefined;
  for (let i = 0, at = byte; i < n; i++, at += stride) {
    if (data[at] & mask) {
      gaps ??= new Uint8Array(n);
      gaps[i] = 1;
      samples?.fill(NaN, i * d, i * d + d);
    }
  }
  return gaps;
}

/** Where a numeric channel sits in a record: MDF 4 data type (0..5), byte and bit offset, bit count (the MDF 3 reader shares this decoder). */
export type RecordField = Pick<Mdf4Channel, 'dataType' | 'bitOffset' | 'byteOffset' | 'bitCount'>;
/** An array's values, sample by sample (row-major within a sample): element k of record i at byteOffset + k × stride. */
function decodeArray(data: Uint8Array | IndexedRecords, recordSize: number, n: number, c: Mdf4Channel, layout: ArrayLayout, out: Float64Array): void {
  const d = layout.shape.reduce((a, b) => a * b, 1);
  const element = new Float64Array(n);
  for (let k = 0; k < d; k++) {
    decodeRaw(data, recordSize, n, { ...c, byteOffset: c.byteOffset + k * layout.stride }, element);
    for (let i = 0; i < n; i++) out[i * d + k] = element[i];
  }
}

/** Raw numeric values of one channel from every record, one DataView read per sample, no allocation per sample. */
export function decodeRaw(records: Uint8Array | IndexedRecords, recordSize: number, n: number, c: RecordField, out: Float64Array): void {
  if (!(records instanceof Uint8Array)) {
    // Unsorted: read in place; what is not whole aligned bytes decodes from its covering bytes, record after record.
    if (decodeIndexed(records, c, out)) return;
    const width = Math.ceil((c.bitOffset + c.bitCount) / 8);
    decodeRaw(compact(records, c.byteOffset, width), width, n, { ...c, byteOffset: 0 }, out);
    return;
  }
  const data = records;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const little = c.dataType % 2 === 0;
  const signed = c.dataType === 2 || c.dataType === 3;
  let at = c.byteOffset;
  if (c.dataType === 4 || c.dataType === 5) {
    if (c.bitCount === 64) for (let i = 0; i < n; i++, at += recordSize) out[i] = view.getFloat64(at, little);
    else if (c.bitCount === 32) for (let i = 0; i < n; i++, at += recordSize) out[i] = view.getFloat32(at, little);
    else for (let i = 0; i < n; i++, at += recordSize) out[i] = halfToNumber(view.getUint16(at, little));
    return;
  }
  if (c.bitOffset === 0 && c.bitCount === 8) {
    if (signed) for (let i = 0; i < n; i++, at += recordSize) out[i] = view.getInt8(at);
    else for (let i = 0; i < n; i++, at += recordSize) out[i] = data[at];
  } else if (c.bitOffset === 0 && c.bitCount === 16) {
    if (signed) for (let i = 0; i < n; i++, at += recordSize) out[i] = view.getInt16(at, little);
    else for (let i = 0; i < n; i++, at += recordSize) out[i] = view.getUint16(at, little);
  } else if (c.bitOffset === 0 && c.bitCount === 32) {
    if (signed) for (let i = 0; i < n; i++, at += recordSize) out[i] = view.getInt32(at, little);
    else for (let i = 0; i < n; i++, at += recordSize) out[i] = view.getUint32(at, little);
  } else if (c.bitOffset === 0 && c.bitCount === 64) {
    // Above 2^53 this rounds to the nearest double, which is what a Float64Array can hold anyway.
    const [lo, hi] = little ? [0, 4] : [4, 0];
    for (let i = 0; i < n; i++, at += recordSize) {
      const high = signed ? view.getInt32(at + hi, little) : view.getUint32(at + hi, little);
      out[i] = high * 4294967296 + view.getUint32(at + lo, little);
    }
  } else {
    decodeBitField(data, recordSize, n, c, little, signed, out);
  }
}

/** Integers that are not whole aligned bytes: gather the covering bytes, then shift and mask arithmetically. */
function decodeBitField(data: Uint8Array, recordSize: number, n: number, c: RecordField, little: boolean, signed: boolean, out: Float64Array): void {
  const bytes = Math.ceil((c.bitOffset + c.bitCount) / 8);
  const useBigInt = bytes > 6;
  const shift = 2 ** c.bitOffset;
  const modulus = 2 ** c.bitCount;
  const half = modulus / 2;
  for (let i = 0, base = c.byteOffset; i < n; i++, base += recordSize) {
    if (useBigInt) {
      let v = 0n;
      for (let k = 0; k < bytes; k++) v = (v << 8n) | BigInt(data[base + (little ? bytes - 1 - k : k)]);
      v = (v >> BigInt(c.bitOffset)) & ((1n << BigInt(c.bitCount)) - 1n);
      if (signed && v >= 1n << BigInt(c.bitCount - 1)) v -= 1n << BigInt(c.bitCount);
      out[i] = Number(v);
      continue;
    }
    let v = 0;
    for (let k = 0; k < bytes; k++) v = v * 256 + data[base + (little ? bytes - 1 - k : k)];
    v = Math.floor(v / shift) % modulus;
    out[i] = signed && v >= half ? v - modulus : v;
  }
}
