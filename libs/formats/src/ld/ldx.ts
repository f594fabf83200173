import { CorruptDataFileError } from '../errors';

/** The marker group whose markers are laps: other groups (sections, user markers) mark places, not laps. */
const BEACONS = 'beacons';

/**
 * Beacon marker times, in seconds, from a MoTeC `.ldx` companion file (XML; each `<Marker Time="...">` of the
 * `Beacons` marker group is in microseconds from the start of the log). Undefined when the file has no beacon
 * markers: the `.ld`'s own lap channel then gives the laps.
 */
export function ldxBeaconTimes(ldx: Uint8Array | string): number[] | undefined {
  const text = typeof ldx === 'string' ? ldx : new TextDecoder('utf-8').decode(ldx);
  if (!/<LDXFile\b/.test(text)) throw new CorruptDataFileError('ldx', 'no <LDXFile> element', 0);
  const times: number[] = [];
  const group = /<MarkerGroup\b([^>]*?)(\/?)>/g;
  for (let open = group.exec(text); open; open = group.exec(text)) {
    if (open[2] === '/') continue;
    const end = text.indexOf('</MarkerGroup>', group.lastIndex);
    if (end < 0) throw new CorruptDataFileError('ldx', 'a <MarkerGroup> element is not closed', open.index);
    const name = /\bName="([^"]*)"/.exec(open[1] ?? '')?.[1];
    if (name?.toLowerCase() === BEACONS) {
      const marker = /<Marker\b[^>]*?\bTime="([^"]*)"/g;
      const body = text.slice(group.lastIndex, end);
      for (let match = marker.exec(body); match; match = marker.exec(body)) {
        const micros = Number(match[1]);
        if (match[1]?.trim() === '' || !Number.isFinite(micros)) throw new CorruptDataFileError('ldx', `marker time "${match[1]}" is not a number`, group.lastIndex + match.index);
        times.push(micros / 1e6);
      }
    }
    group.lastIndex = end;
  }
  return times.length ? times.sort((a, b) => a - b) : undefined;
}
