import { randomUUID } from 'node:crypto';
import { authHeaders, send, startGateway, type Harness } from '../support/gateway-harness';

/** A path or query value that is not valid percent-encoding (a `%` not starting `%XX`, or bytes that are not UTF-8). */
describe('percent-encoding of path and query values', () => {
  let gw: Harness;
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(() => gw.stop());

  const id = randomUUID();
  /** The answer's status and problem, and whether a command left the gateway. */
  const call = async (method: string, path: string, options: { body?: unknown; headers?: Record<string, string> } = {}) => {
    const before = gw.received.length;
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    const res = await send(gw.baseUrl, method, path, { headers: { ...(options.headers ?? authHeaders), ...(body ? { 'Content-Type': 'application/json' } : {}) }, ...(body ? { body } : {}) });
    return { status: res.status, type: res.headers['content-type'], problem: res.body ? (JSON.parse(res.body) as { detail?: string; errors?: unknown }) : undefined, sent: gw.received.length > before };
  };
  const refusal = (name: string, value: string) => ({
    status: 400,
    type: expect.stringContaining('application/problem+json'),
    problem: expect.objectContaining({ detail: `${name} '${value}' is not valid percent-encoding (write % itself as %25)`, errors: { [name]: ['is not valid percent-encoding'] } }),
    sent: false,
  });

  test.each([
    ['the data file group of a metadata read', 'GET', `/RunSheets/${id}/DataFileAccess/50%/metadata`, undefined, 'attachedFileGroupName', '50%'],
    ['the data file group of a batch read', 'POST', `/RunSheets/${id}/DataFileAccess/50%/channels`, { channels: ['Speed'], mode: 0 }, 'attachedFileGroupName', '50%'],
    ['an entity id', 'GET', '/Championships/50%', undefined, 'id', '50%'],
    ['an attached file id (bytes that are not UTF-8)', 'DELETE', `/Championships/${id}/Attachments/%E0%A4%A`, undefined, 'attachedFileId', '%E0%A4%A'],
    ['a query value', 'GET', `/RunSheets/${id}/DataFileAccess/DataFile/channel?channel=Throttle%`, undefined, 'channel', 'Throttle%'],
  ])('when %s is not valid percent-encoding, then 400 names it and nothing is sent', async (_what, method, path, body, name, value) => {
    expect(await call(method, path, { body })).toEqual(refusal(name, value));
  });

  test('when a path value and a query value are both malformed, then one 400 names both', async () => {
    const answer = await call('GET', `/RunSheets/${id}/DataFileAccess/%zz/channel?channel=%zz&maxPoints=10`);
    expect(answer).toMatchObject({ status: 400, sent: false, problem: { errors: { attachedFileGroupName: ['is not valid percent-encoding'], channel: ['is not valid percent-encoding'] } } });
  });

  test('when a signed blob URL is malformed, then 400 names its attached file id (no key: the URL is the authority)', async () => {
    expect(await call('GET', '/blobs/%zz?expires=1&sig=x', { headers: {} })).toEqual(refusal('attachedFileId', '%zz'));
  });

  test("when the method is none of the path's, then it is the 405 naming the methods there, whatever the encoding of its values", async () => {
    const answer = await call('DELETE', `/RunSheets/${id}/DataFileAccess/50%/metadata`);
    expect(answer).toMatchObject({ status: 405, sent: false, problem: { detail: expect.stringContaining('it answers GET') } });
    const res = await send(gw.baseUrl, 'PATCH', '/Championships/50%', { headers: authHeaders });
    expect([res.status, res.headers['allow']]).toEqual([405, 'GET, HEAD, PUT, DELETE']);
  });

  test('when a group or file name holds a NUL or an unpaired surrogate (which the store cannot hold), then 400 names it and nothing is sent', async () => {
    const named = (name: string) => ({ status: 400, sent: false, problem: expect.objectContaining({ errors: { [name]: ['may not contain NUL characters or unpaired surrogates'] } }) });
    expect(await call('GET', `/RunSheets/${id}/DataFileAccess/DataFile%00/metadata`)).toMatchObject(named('attachedFileGroupName'));
    expect(await call('GET', `/RunSheets/${id}/DataFileAccess/%ED%A0%80/metadata`)).toMatchObject({ status: 400, sent: false });
    expect(await call('GET', `/RunSheets/${id}/DataFileAccess/DataFile/delta?lapIndex=1&referenceLapIndex=0&referenceAttachedFileGroupName=%00`)).toMatchObject(named('referenceAttachedFileGroupName'));
    expect(await call('POST', `/RunSheets/${id}/Attachments`, { body: { FileName: 'a\u0000.ld' } })).toMatchObject(named('FileName'));
    expect(await call('POST', `/RunSheets/${id}/Attachments`, { body: { FileName: 'a.ld', AttachedFileGroupName: 'G\ud800' } })).toMatchObject(named('AttachedFileGroupName'));
  });

  test('when the API key is missing, then it is 401 before any value is looked at', async () => {
    expect(await call('GET', '/Championships/50%', { headers: {} })).toMatchObject({ status: 401, sent: false });
  });

  test('when the values are well-formed, then they are read decoded (%25 is a %, %20 a space)', async () => {
    expect(await call('GET', `/RunSheets/${id}/DataFileAccess/Data%20File%25/channel?channel=Throttle%25`)).toMatchObject({ status: 200, sent: true });
    expect(gw.received.at(-1)?.payload).toMatchObject({ group: 'Data File%', channel: 'Throttle%' });
  });
});
