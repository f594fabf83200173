import type { Bus } from '@pitwall/bus';
import { ATTACHMENT_COMMANDS, MAX_SECTORS, type DatasetSectorsJson } from '@pitwall/contracts';
import { TrackSectors } from '../../src/domain/track-sectors';

const ref = { caller: { accountId: '00000000-0000-4000-8000-00000000000a', userId: '00000000-0000-4000-8000-000000000001', role: 'reader' as const }, type: 'RunSheets', id: '00000000-0000-4000-8000-0000000000aa', group: 'DataFile' };

/** A bus whose entity-service answers the dataset-sectors command with `answer`, and records what it was asked. */
function answering(answer: DatasetSectorsJson) {
  const asked: { type: string; payload: unknown }[] = [];
  const bus = { request: async (_service: string, type: string, payload: unknown) => (asked.push({ type, payload }), answer) } as unknown as Bus;
  return { bus, asked };
}
const sector = (i: number, startDistance: number | null) => ({ id: `s${i}`, name: `S${i}`, startDistance });

describe('the track sectors of a lap statistics read', () => {
  test('when the track has definitions, then their start distances come ascending, each once, those without one left out, asked as the caller', async () => {
    const { bus, asked } = answering({ trackConfigurationId: 'c', sectors: [sector(1, 700), sector(2, 0), sector(3, null), sector(4, 700), sector(5, 1500.5)] });
    expect(await new TrackSectors(bus).startDistances(ref)).toEqual([0, 700, 1500.5]);
    expect(asked).toEqual([{ type: ATTACHMENT_COMMANDS.datasetSectors, payload: { caller: ref.caller, type: 'RunSheets', id: ref.id } }]);
  });

  test('when the track has more definitions than a request may name, then only the first MAX_SECTORS distances are timed', async () => {
    const many = Array.from({ length: MAX_SECTORS * 50 }, (_, i) => sector(i, i * 10));
    const { bus } = answering({ trackConfigurationId: 'c', sectors: many });
    const distances = await new TrackSectors(bus).startDistances(ref);
    expect(distances).toHaveLength(MAX_SECTORS);
    expect(distances[MAX_SECTORS - 1]).toBe((MAX_SECTORS - 1) * 10);
  });
});
