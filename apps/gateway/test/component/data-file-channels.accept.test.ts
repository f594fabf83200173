import { randomUUID } from 'node:crypto';
import { authHeaders, send, startGateway, type Harness } from '../support/gateway-harness';

/** Which body the channel reads ask the datafile-service for, by the request's Accept (wire.md §8, docs/api.md). */
describe('Accept of the data file channel reads', () => {
  let gw: Harness;
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(() => gw.stop());

  const id = randomUUID();
  /** The binaryType the gateway put in the read's command (undefined: JSON), and the answer's status. */
  const asked = async (method: 'GET' | 'POST', accept: string | undefined): Promise<{ status: number; binaryType: unknown }> => {
    const before = gw.received.length;
    const path = method === 'GET' ? `/RunSheets/${id}/DataFileAccess/DataFile/channel?channel=Speed` : `/RunSheets/${id}/DataFileAccess/DataFile/channels`;
    const body = method === 'POST' ? JSON.stringify({ channels: ['Speed'], mode: 0 }) : undefined;
    const res = await send(gw.baseUrl, method, path, { headers: { ...authHeaders, ...(accept === undefined ? {} : { Accept: accept }), ...(body ? { 'Content-Type': 'application/json' } : {}) }, ...(body ? { body } : {}) });
    const payload = gw.received.slice(before).at(-1)?.payload as { binaryType?: unknown } | undefined;
    return { status: res.status, binaryType: payload?.binaryType };
  };

  test.each([
    ['a binary type with a parameter', 'application/x-service-channels;version=1', 'application/x-service-channels'],
    ['a binary type with a quoted parameter holding a comma', 'application/x-service-channels; note="a, b", application/json;q=0.5', 'application/x-service-channels'],
    ['octet-stream with q=1', 'application/octet-stream; q=1', 'application/octet-stream'],
    ['a binary type in capitals', 'Application/X-Service-Channels', 'application/x-service-channels'],
    ['JSON less preferred than a binary type', 'application/json;q=0.5, application/octet-stream', 'application/octet-stream'],
    ['a binary type less preferred than JSON', 'application/x-service-channels;q=0.5, application/json', undefined],
    ['a binary type refused (q=0) beside the other', 'application/x-service-channels;q=0, application/octet-stream;q=0.3', 'application/octet-stream'],
    ['JSON refused and anything else accepted', 'application/json;q=0, */*', 'application/x-service-channels'],
    ['the Arrow stream', 'application/vnd.apache.arrow.stream', 'application/vnd.apache.arrow.stream'],
    ['the Arrow stream preferred to JSON', 'application/json;q=0.9, application/vnd.apache.arrow.stream', 'application/vnd.apache.arrow.stream'],
    ['the Arrow file', 'application/vnd.apache.arrow.file', 'application/vnd.apache.arrow.file'],
    ['the Arrow file preferred to the stream', 'application/vnd.apache.arrow.stream;q=0.5, application/vnd.apache.arrow.file', 'application/vnd.apache.arrow.file'],
    ['the Arrow stream preferred to the file', 'application/vnd.apache.arrow.file;q=0.5, application/vnd.apache.arrow.stream', 'application/vnd.apache.arrow.stream'],
    ['the Arrow file and stream alike (the one written first)', 'application/vnd.apache.arrow.file, application/vnd.apache.arrow.stream', 'application/vnd.apache.arrow.file'],
    ['the Arrow file less preferred than JSON', 'application/vnd.apache.arrow.file;q=0.5, application/json', undefined],
    ['another Arrow type it does not have (JSON, its default)', 'application/vnd.apache.arrow.json', undefined],
    ['anything', '*/*', undefined],
    ['any application type', 'application/*', undefined],
    ['no Accept', undefined, undefined],
    ['only types it does not have (JSON, its default)', 'text/html', undefined],
    ['JSON', 'application/json', undefined],
    ['a q written with more digits than RFC 9110 allows', 'application/octet-stream;q=1.0000, application/json;q=0.5', 'application/octet-stream'],
    ['a q out of range (clamped)', 'application/json;q=0.4, application/octet-stream;q=7', 'application/octet-stream'],
    ['a q that is not a number (the range skipped)', 'application/octet-stream;q=high, application/json;q=0.1', undefined],
  ])('when Accept is %s, then the read asks for the body it prefers', async (_what, accept, binaryType) => {
    for (const method of ['GET', 'POST'] as const) expect(await asked(method, accept)).toEqual({ status: 200, binaryType });
  });
});
