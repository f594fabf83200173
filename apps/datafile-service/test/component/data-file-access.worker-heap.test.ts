import { ldWithChannels } from '@pitwall/formats/testing';
import { writeLdFile } from '@pitwall/formats';
import { useDatafileStack } from '../support/datafile-stack';

// DATAFILE_WORKER_HEAP_MB bounds each pool worker's heap: a file whose decoding needs more ends that worker alone (a
// 422 naming the variable), and the service goes on reading other files.
describe('a read whose decoding passes the worker heap bound', () => {
  const started = useDatafileStack('datafile-worker-heap-', { MAX_CHANNELS_PER_FILE: '50000' }, { datafileEnv: { DATAFILE_WORKER_HEAP_MB: '32' } });
  const metadata = (id: string) => fetch(`${started.base}/RunSheets/${id}/DataFileAccess/DataFile/metadata`, { headers: started.headers });

  test('when a 50,000-channel .ld group is catalogued with a 32 MiB worker heap, then 422 naming DATAFILE_WORKER_HEAP_MB, and a small file is read next', async () => {
    const part = ldWithChannels(50_000);
    const big = await started.attached.entity();
    await started.attached.attach(big, 'DataFile', 'lap1.ld', part);
    await started.attached.attach(big, 'DataFile', 'lap2.ld', part);
    const refused = await metadata(big);
    const problem = (await refused.json()) as { detail: string };
    expect([refused.status, refused.headers.get('content-type')]).toEqual([422, 'application/problem+json; charset=utf-8']);
    expect(problem.detail).toContain('DATAFILE_WORKER_HEAP_MB is 32 MiB');

    const small = await started.attached.entityWithFile('DataFile', 'small.ld', writeLdFile({ channels: [{ name: 'Speed', unit: 'km/h', frequency: 10, type: 'float32', samples: [1, 2, 3] }] }));
    const read = await metadata(small);
    expect(read.status).toBe(200);
    expect(((await read.json()) as { channels: unknown[] }).channels).toHaveLength(1);
  }, 120_000);
});
