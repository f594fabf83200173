import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const FIXTURES = join(__dirname, '..', '..', '..', '..', 'libs', 'formats', 'test', 'fixtures', 'telemetry');

/** A telemetry fixture of the repository (libs/formats/test/fixtures/telemetry). */
export function fixture(name: string): Uint8Array {
  return new Uint8Array(readFileSync(join(FIXTURES, name)));
}

/** An .ldx whose Beacons markers (µs) cut Sample1.ld into three laps at 162.1 s and 225.8 s; other groups are ignored. */
export const SAMPLE1_LDX = `<?xml version="1.0"?><LDXFile Version="1.6"><Layers><Layer><MarkerBlock>
  <MarkerGroup Name="Beacons">
    <Marker Version="100" ClassName="BCN" Name="Manual.1" Flags="77" Time="162100000"/>
    <Marker Version="100" ClassName="BCN" Name="Manual.2" Flags="77" Time="225800000"/>
  </MarkerGroup>
  </MarkerBlock></Layer></Layers></LDXFile>`;
