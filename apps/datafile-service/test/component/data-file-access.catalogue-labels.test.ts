import { buildMdf4File } from '@pitwall/formats/testing';
import { useDatafileStack } from '../support/datafile-stack';

/** Two records of `channels` 8-bit channels, each with a value→text conversion of four texts (and a default). */
function labelled(channels: number): Uint8Array {
  const records = new Uint8Array(2 * (8 + channels));
  const view = new DataView(records.buffer);
  for (let i = 0; i < 2; i++) view.setFloat64(i * (8 + channels), i / 10, true);
  return buildMdf4File({
    groups: [
      {
        dataBytes: 8 + channels,
        cycleCount: 2,
        records,
        channels: [
          { name: 'Time', unit: 's', dataType: 4, bitCount: 64, byteOffset: 0, cnType: 2 },
          ...Array.from({ length: channels }, (_, c) => ({ name: `Mode ${c}`, dataType: 0, bitCount: 8, byteOffset: 8 + c, conversion: { type: 7, values: [0, 1, 2, 3], texts: ['off', 'low', 'mid', 'high', 'unknown'] } })),
        ],
      },
    ],
  });
}

// Each channel's catalogue record repeats its conversion's labels: DATAFILE_MAX_CATALOGUE_LABELS bounds them together.
describe('a catalogue whose channels carry many text labels', () => {
  const started = useDatafileStack('datafile-catalogue-labels-', {}, { datafileEnv: { DATAFILE_MAX_CATALOGUE_LABELS: '10', DATAFILE_MAX_CATALOGUE_CHARS: '400' } });
  const metadata = (id: string) => fetch(`${started.base}/RunSheets/${id}/DataFileAccess/DataFile/metadata`, { headers: started.headers });

  test('when a file\'s channels carry 12 labels together under a bound of 10, then 422 naming DATAFILE_MAX_CATALOGUE_LABELS; 8 labels are read', async () => {
    const over = await started.attached.entityWithFile('DataFile', 'three.mf4', labelled(3));
    const refused = await metadata(over);
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { detail: string }).detail).toMatch(/has 12 text labels; at most 10 are read \(DATAFILE_MAX_CATALOGUE_LABELS is 10/);

    const within = await started.attached.entityWithFile('DataFile', 'two.mf4', labelled(2));
    const read = await metadata(within);
    expect(read.status).toBe(200);
    expect(((await read.json()) as { channels: { name: string }[] }).channels.map((c) => c.name)).toEqual(['Mode 0', 'Mode 1']);
  }, 60_000);

  // A file may store one text for many channels (an MDF text block every unit links to): the catalogue repeats it in
  // each channel's record, so its characters are counted per channel, names, units and labels together.
  test('when the channels\' names, units and labels are more characters together than DATAFILE_MAX_CATALOGUE_CHARS, then 422 naming it', async () => {
    const unit = 'u'.repeat(150);
    const records = new Uint8Array(2 * 3);
    const wordy = buildMdf4File({ groups: [{ dataBytes: 3, cycleCount: 2, records, channels: [0, 1, 2].map((c) => ({ name: `Wide ${c}`, unit, dataType: 0, bitCount: 8, byteOffset: c })) }] });
    const refused = await metadata(await started.attached.entityWithFile('DataFile', 'wordy.mf4', wordy));
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { detail: string }).detail).toBe(
      "wordy.mf4: The data file could not be read: mdf4 has 468 characters of names, units and labels; at most 400 are read (DATAFILE_MAX_CATALOGUE_CHARS is 400: each channel's record carries its name, unit and labels, though the file may store one text for many)",
    );
  }, 60_000);
});
