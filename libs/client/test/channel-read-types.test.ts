import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { encodeChannels } from '@pitwall/channels';
import type { ChannelsReadJson, ReadRecordJson } from '@pitwall/contracts';
import { PitwallClient, type ChannelReadOptions, type ReadSeries } from '../src';

// The read's answer type follows its options: each assignment below compiles only because the method's result is the
// one type its options ask for (the typecheck of the repository is part of CI); the requests check the same at runtime.
describe('a channel read is typed by what its options ask for', () => {
  const record = { name: 'Speed', unit: 'km/h', frequency: 2, dimension: 1, samples: [1, null] };
  const binary = encodeChannels([{ name: 'Speed', unit: 'km/h', frequency: 2, dimension: 1, startTime: 0, samples: Float64Array.from([1, 2]) }]);
  const arrow = Uint8Array.from([0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]);
  let server: Server;
  let client: PitwallClient;
  beforeAll(async () => {
    server = createServer((req, res) => {
      const accept = req.headers.accept ?? '';
      if (accept.includes('arrow')) res.writeHead(200, { 'Content-Type': 'application/vnd.apache.arrow.stream' }).end(arrow);
      else if (accept.includes('x-service-channels')) res.writeHead(200, { 'Content-Type': 'application/x-service-channels' }).end(binary);
      else if (req.method === 'POST') res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ entityId: 'e', entityType: 'RunSheets', attachedFileGroupName: 'DataFile', mode: 0, channels: [record] }));
      else res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(record));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    client = new PitwallClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, apiKey: 'k', accountId: 'a' });
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test('when no form is asked for, then the answer is the JSON record; with binary, the decoded series; with arrow, the bytes', async () => {
    const json: ReadRecordJson | null = (await client.getRunSheetDataFileChannel('r', 'DataFile', 'Speed', { lapIndex: 1 })).returnValue;
    expect(json).toEqual(record);
    const plain: ReadRecordJson | null = (await client.getRunSheetDataFileChannel('r', 'DataFile', 'Speed')).returnValue;
    expect(plain).toEqual(record);
    const series: ReadSeries[] | null = (await client.getRunSheetDataFileChannel('r', 'DataFile', 'Speed', { binary: true })).returnValue;
    expect(series?.[0]?.name).toBe('Speed');
    const bytes: Uint8Array | null = (await client.getRunSheetDataFileChannel('r', 'DataFile', 'Speed', { arrow: true, maxPoints: 10 })).returnValue;
    expect(bytes?.byteLength).toBe(arrow.byteLength);
    const batch: ChannelsReadJson | null = (await client.getRunSheetDataFileChannels('r', 'DataFile', { channels: ['Speed'], mode: 0 })).returnValue;
    expect(batch?.channels).toEqual([record]);
    const batchSeries: ReadSeries[] | null = (await client.getRunSheetDataFileChannels('r', 'DataFile', { channels: ['Speed'], mode: 0 }, { binary: true })).returnValue;
    expect(batchSeries).toHaveLength(1);
  });

  test('when the options are only known at runtime, then the answer may be any of the three', async () => {
    const options: ChannelReadOptions = { binary: Math.random() < 2 };
    const answer: ReadRecordJson | ReadSeries[] | Uint8Array | null = (await client.getRunSheetDataFileChannel('r', 'DataFile', 'Speed', options)).returnValue;
    expect(Array.isArray(answer)).toBe(true);
  });
});
