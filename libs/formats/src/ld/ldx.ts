import { CorruptDataFileError } from '../errors';

/**
 * Beacon marker times, in seconds, from a MoTeC `.ldx` companion file (XML; each `<Marker Time="...">` is in
 * microseconds from the start of the log).
 */
export function ldxBeaconTimes(ldx: Uint8Array | string): number[] {
  const text = typeof ldx === 'string' ? ldx : new TextDecoder('utf-8').decode(ldx);
  if (!/<LDXFile\b/.test(text)) throw new CorruptDataFileError('ldx', 'no <LDXFile> element', 0);
  const times: number[] = [];
  const marker = /<Marker\b[^>]*?\bTime="([^"]*)"/g;
  for (let match = marker.exec(text); match; match = marker.exec(text)) {
    const micros = Number(match[1]);
    if (!Number.isFinite(micros)) throw new CorruptDataFileError('ldx', `marker time "${match[1]}" is not a number`, match.index);
    times.push(micros / 1e6);
  }
  return times.sort((a, b) => a - b);
}
