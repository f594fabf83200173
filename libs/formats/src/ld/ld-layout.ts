/**
 * Byte layout of MoTeC i2 `.ld` files, little-endian throughout. Offsets are relative to the start of each
 * block; shared by the reader and the writer so both agree on one definition.
 */
export const LD_MARKER = 0x40;

export const HEADER = {
  size: 1762,
  marker: 0, // u32, always 0x40
  channelMetaPtr: 8, // u32, first channel block
  channelDataPtr: 12, // u32, first sample byte
  eventPtr: 36, // u32
  deviceSerial: 70, // u32
  deviceType: 74, // 8 chars
  deviceVersion: 82, // u16
  channelCount: 86, // u32
  date: 94, // 16 chars, dd/mm/yyyy
  time: 126, // 16 chars, hh:mm:ss
  driver: 158, // 64 chars
  vehicleId: 222, // 64 chars
  venue: 350, // 64 chars
  shortComment: 1572, // 64 chars
} as const;

export const EVENT = { size: 1154, name: 0, session: 64, comment: 128, venuePtr: 1152 } as const; // venuePtr u16
export const VENUE = { size: 1100, name: 0, vehiclePtr: 1098 } as const; // vehiclePtr u16
export const VEHICLE = { size: 260, id: 0, weight: 192, type: 196, comment: 228 } as const;

export const CHANNEL = {
  size: 124,
  prev: 0, // u32
  next: 4, // u32, 0 ends the list
  dataPtr: 8, // u32
  sampleCount: 12, // u32
  counter: 16, // u16
  typeClass: 18, // u16: 0, 3, 5 integer; 7 float
  typeSize: 20, // u16: 2 or 4 bytes
  frequency: 22, // u16, Hz
  shift: 24, // i16
  mul: 26, // i16
  scale: 28, // i16
  dec: 30, // i16
  name: 32, // 32 chars
  shortName: 64, // 8 chars
  unit: 72, // 12 chars
} as const;

export type LdSampleType = 'int16' | 'int32' | 'float16' | 'float32';

export function ldSampleType(typeClass: number, typeSize: number): LdSampleType | null {
  if (typeClass === 0 || typeClass === 3 || typeClass === 5) return typeSize === 2 ? 'int16' : typeSize === 4 ? 'int32' : null;
  if (typeClass === 7) return typeSize === 2 ? 'float16' : typeSize === 4 ? 'float32' : null;
  return null;
}

export const SAMPLE_BYTES: Record<LdSampleType, number> = { int16: 2, int32: 4, float16: 2, float32: 4 };

/**
 * physical = (raw / scale * 10^-dec + shift) * mul, rewritten as raw * numerator / denominator + offset with
 * integer numerator and denominator so that, e.g., 2446 with dec 1 gives exactly 244.6 (one rounding, not two).
 */
export interface LdScaling {
  shift: number;
  mul: number;
  scale: number;
  dec: number;
}

export function scalingTerms(s: LdScaling): { numerator: number; denominator: number; offset: number } {
  let numerator = s.mul * 10 ** Math.max(0, -s.dec);
  let denominator = s.scale * 10 ** Math.max(0, s.dec);
  if (denominator < 0) {
    numerator = -numerator;
    denominator = -denominator;
  }
  return { numerator, denominator, offset: s.shift * s.mul };
}
