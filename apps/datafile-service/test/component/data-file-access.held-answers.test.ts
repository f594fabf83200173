import { REPLY_ANSWER_HELD, REPLY_ANSWER_TAG, REQUEST_HELD_ANSWER, type EncodedJson } from '@pitwall/bus';
import { decodeChannelsBody } from '@pitwall/client';
import { DATAFILE_COMMANDS, SERVICES } from '@pitwall/contracts';
import { createDemoLdFile, openDataFile } from '@pitwall/formats';
import { fixture } from '../support/fixtures';
import { busReplies, defineMathChannel, useDatafileStack } from '../support/datafile-stack';

/**
 * Large answers the gateway holds (HELD_ANSWERS_BYTES, docs/architecture.md): an answer fetched by claim is kept by the
 * request it answered; the same request again names it, and the datafile-service, after its permission check, replies
 * that it still is the answer (no claim, no bytes on any road), or sends another one.
 */
describe('large read answers held by the gateway: sent again only when the service says they still are the answer', () => {
  // SHUTDOWN_GRACE_MS 0: the stack's stop at the end would wait the whole grace (8 s) for the claims of the replies this
  // suite asks for on the bus by hand and reads only the headers of, which no gateway ever redeems.
  const started = useDatafileStack('datafile-held-', { URL_SIGNING_SECRET: 'datafile-held-test-secret', CLAIM_SECRET: 'datafile-held-shared-secret', CLAIM_IN_PROCESS: 'false', SHUTDOWN_GRACE_MS: '0' }, { outsider: true, datafileEnv: { CLAIM_INLINE_MAX_BYTES: '4096' } });
  const sample1 = fixture('Sample1.ld');
  const names = openDataFile(sample1).channels.map((c) => c.name);
  let runSheet: string;
  const dataset = (id = runSheet) => `/RunSheets/${id}/DataFileAccess/DataFile`;

  beforeAll(async () => {
    runSheet = await started.attached.entityWithFile('DataFile', 'Sample1.ld', sample1);
  }, 90_000);

  // The identity transfer (its Content-Length, its chunks) is what these reads check: asked for it, as fetch would send gzip
  // (compressed answers: data-file-access.compression.test.ts).
  const channel = (name: string, accept?: string, headers: Record<string, string> = started.headers, id = runSheet) =>
    fetch(`${started.base}${dataset(id)}/channel?channel=${encodeURIComponent(name)}`, { headers: { ...headers, 'Accept-Encoding': 'identity', ...(accept ? { Accept: accept } : {}) } });
  const batch = (accept?: string) => fetch(`${started.base}${dataset()}/channels`, { method: 'POST', headers: { ...started.headers, 'Content-Type': 'application/json', 'Accept-Encoding': 'identity', ...(accept ? { Accept: accept } : {}) }, body: JSON.stringify({ channels: names, mode: 0 }) });

  /** The read's answer as the client got it, and the one bus reply the gateway had for it. */
  async function read(send: () => Promise<Response>): Promise<{ status: number; type: string | null; length: string | null; body: Buffer; reply: EncodedJson }> {
    let answer!: { status: number; type: string | null; length: string | null; body: Buffer };
    const replies = await busReplies(started.stack, async () => {
      const r = await send();
      answer = { status: r.status, type: r.headers.get('content-type'), length: r.headers.get('content-length'), body: Buffer.from(await r.arrayBuffer()) };
    });
    expect(replies).toHaveLength(1);
    return { ...answer, reply: replies[0] as EncodedJson };
  }

  test('when a large binary read is asked again, then the service only says it is the held answer, and the same bytes come with their length and type', async () => {
    const first = await read(() => channel('Ground Speed', 'application/x-service-channels'));
    expect(first.status).toBe(200);
    expect(first.reply.claim).toBeDefined();
    const tag = first.reply.headers[REPLY_ANSWER_TAG];
    expect(tag).toMatch(/^[A-Za-z0-9_-]{22}$/);

    const second = await read(() => channel('Ground Speed', 'application/x-service-channels'));
    expect(second.reply.headers[REPLY_ANSWER_HELD]).toBe(tag);
    expect(second.reply.claim).toBeUndefined();
    expect(second.reply.json.byteLength).toBeLessThan(16);
    expect(second).toMatchObject({ status: 200, type: first.type, length: String(first.body.byteLength) });
    expect(second.body.equals(first.body)).toBe(true);
    expect(decodeChannelsBody(second.body).map((c) => c.name)).toEqual(['Ground Speed']);
    expect(started.datafile.parts.desk.waitingCount).toBe(0);
  });

  test('when the same channel is asked in another form (JSON, octet-stream), then that is another answer: never the held binary one', async () => {
    const binary = await read(() => channel('Ground Speed', 'application/x-service-channels'));
    const octets = await read(() => channel('Ground Speed', 'application/octet-stream'));
    expect(octets.reply.headers[REPLY_ANSWER_HELD]).toBeUndefined();
    expect(octets.type).toBe('application/octet-stream');
    expect(octets.body.equals(binary.body)).toBe(true);
    const json = await read(() => channel('Ground Speed'));
    expect(json.reply.headers[REPLY_ANSWER_HELD]).toBeUndefined();
    expect(json.type).toMatch(/^application\/json/);
    expect((JSON.parse(json.body.toString()) as { name: string }).name).toBe('Ground Speed');
  });

  test('when a read is asked as the Arrow stream, then as the Arrow file, then each again, then each gets its own form (the second time as its held answer), large or small', async () => {
    const STREAM = 'application/vnd.apache.arrow.stream';
    const FILE = 'application/vnd.apache.arrow.file';
    const isFile = (body: Buffer) => body.subarray(0, 6).toString('latin1') === 'ARROW1' && body.subarray(-6).toString('latin1') === 'ARROW1';
    // Large (by claim, held by the gateway), then small (inline, kept by the datafile-service's result cache).
    const reads = [
      { large: true, send: (accept: string) => channel('Engine RPM', accept) },
      { large: false, send: (accept: string) => fetch(`${started.base}${dataset()}/channel?channel=Engine%20RPM&lapIndex=1&maxPoints=16`, { headers: { ...started.headers, Accept: accept } }) },
    ];
    for (const { large, send } of reads) {
      const stream = await read(() => send(STREAM));
      const file = await read(() => send(FILE));
      expect([stream.reply.claim !== undefined, file.reply.claim !== undefined]).toEqual([large, large]);
      expect([stream.type, isFile(stream.body), file.type, isFile(file.body)]).toEqual([STREAM, false, FILE, true]);
      expect(file.body.subarray(8, 8 + stream.body.byteLength).equals(stream.body)).toBe(true);
      expect(file.reply.headers[REPLY_ANSWER_HELD]).toBeUndefined();
      for (const [again, first] of [[await read(() => send(STREAM)), stream], [await read(() => send(FILE)), file]] as const) {
        expect(again).toMatchObject({ status: 200, type: first.type, length: String(first.body.byteLength) });
        expect(again.body.equals(first.body)).toBe(true);
        if (first.reply.claim) expect(again.reply.headers[REPLY_ANSWER_HELD]).toBe(first.reply.headers[REPLY_ANSWER_TAG]);
      }
    }
  });

  test('when a streamed JSON batch is asked again, then the held copy is the same document, now with its length', async () => {
    const first = await read(() => batch());
    expect(first.length).toBeNull();
    expect(first.reply.claim).toBeDefined();
    const second = await read(() => batch());
    expect(second.reply.headers[REPLY_ANSWER_HELD]).toBe(first.reply.headers[REPLY_ANSWER_TAG]);
    expect(second.length).toBe(String(first.body.byteLength));
    expect(second.body.equals(first.body)).toBe(true);
    expect(JSON.parse(second.body.toString())).toMatchObject({ entityId: runSheet, entityType: 'RunSheets', mode: 0 });
  });

  test('when a request names the tag of another form\'s, another lap\'s or another dataset\'s answer, then the service sends its own answer, never a held reply', async () => {
    const first = await read(() => channel('Ground Speed', 'application/x-service-channels'));
    const tag = first.reply.headers[REPLY_ANSWER_TAG] as string;
    const caller = { accountId: started.demo.accountId, userId: started.demo.userId, role: 'admin' as const };
    const other = await started.attached.entityWithFile('DataFile', 'Sample1.ld', sample1);
    const ask = (message: Record<string, unknown>, command: string = DATAFILE_COMMANDS.channel) =>
      started.stack.bus.requestEncoded(SERVICES.datafile, command, { caller, type: 'RunSheets', id: runSheet, group: 'DataFile', channel: 'Ground Speed', scope: { mode: 'file' }, ...message }, { headers: { [REQUEST_HELD_ANSWER]: tag } });
    // The request the tag was made for: held.
    expect((await ask({ binaryType: 'application/x-service-channels' })).headers[REPLY_ANSWER_HELD]).toBe(tag);
    for (const message of [{ binaryType: 'application/octet-stream' }, {}, { binaryType: 'application/x-service-channels', id: other }, { binaryType: 'application/x-service-channels', scope: { mode: 'lap', lapIndex: 1 } }, { binaryType: 'application/x-service-channels', maxPoints: 100 }]) {
      const reply = await ask(message);
      expect(reply.headers[REPLY_ANSWER_HELD]).toBeUndefined();
      expect(reply.headers[REPLY_ANSWER_TAG]).not.toBe(tag);
    }
    // A JSON batch of the same dataset and of another one with the same file: each its own framing, its own tag.
    const batchOf = (id: string) => ask({ id, channels: ['Ground Speed'], mode: 0, channel: undefined }, DATAFILE_COMMANDS.channels);
    const [mine, theirs] = [await batchOf(runSheet), await batchOf(other)];
    expect(mine.headers[REPLY_ANSWER_TAG]).not.toBe(theirs.headers[REPLY_ANSWER_TAG]);
    for (const reply of [mine, theirs]) expect(reply.headers[REPLY_ANSWER_HELD]).toBeUndefined();
  });

  test('when another account asks for the held read, then it is refused as before (404): the held bytes never reach it', async () => {
    await read(() => channel('Ground Speed', 'application/x-service-channels'));
    const spy = jest.spyOn(started.stack.bus, 'requestEncoded');
    try {
      const r = await channel('Ground Speed', 'application/x-service-channels', started.outsider.headers);
      expect(r.status).toBe(404);
      expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(await r.text()).toContain('was not found');
      // The gateway did name the answer it holds: the service's check refused the caller all the same.
      expect(spy.mock.calls[0]?.[3]?.headers?.[REQUEST_HELD_ANSWER]).toMatch(/^[A-Za-z0-9_-]{22}$/);
    } finally {
      spy.mockRestore();
    }
  });

  test('when another dataset with the same file is read, then its JSON batch names its own entity, not the held one', async () => {
    await read(() => batch());
    const other = await started.attached.entityWithFile('DataFile', 'Sample1.ld', sample1);
    const r = await fetch(`${started.base}${dataset(other)}/channels`, { method: 'POST', headers: { ...started.headers, 'Content-Type': 'application/json' }, body: JSON.stringify({ channels: names, mode: 0 }) });
    expect(((await r.json()) as { entityId: string }).entityId).toBe(other);
  });

  test('when the dataset\'s file is replaced, then the next read is the new file\'s, not the held answer', async () => {
    const first = createDemoLdFile({ flyingLaps: 3 });
    const second = createDemoLdFile({ flyingLaps: 5 });
    const id = await started.attached.entityWithFile('DataFile', 'outing.ld', first, { replacing: 'outing' });
    const name = openDataFile(first).channels.find((c) => c.sampleCount > 4096)?.name as string;
    const before = await read(() => channel(name, 'application/x-service-channels', started.headers, id));
    expect(before.reply.claim).toBeDefined();
    expect((await read(() => channel(name, 'application/x-service-channels', started.headers, id))).reply.headers[REPLY_ANSWER_HELD]).toBeDefined();

    await started.attached.attach(id, 'DataFile', 'outing.ld', second, { replacing: 'outing' });
    const after = await read(() => channel(name, 'application/x-service-channels', started.headers, id));
    expect(after.reply.headers[REPLY_ANSWER_HELD]).toBeUndefined();
    const samples = (body: Buffer) => {
      const decoded = decodeChannelsBody(body)[0];
      return decoded && 'samples' in decoded ? decoded.samples.length : -1;
    };
    expect(samples(after.body)).toBe(openDataFile(second).channels.find((c) => c.name === name)?.sampleCount);
    expect(samples(after.body)).not.toBe(samples(before.body));
  }, 60_000);

  const send = (method: string, path: string, body: unknown) => fetch(`${started.base}${path}`, { method, headers: { ...started.headers, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  /** Defines a math channel; returns its id. */
  const define = (Name: string, Expression: string): Promise<string> => defineMathChannel(started, { Name, Expression, Unit: 'm/s' });

  /**
   * Reads `name` (JSON) twice, the second time held; edits the definition `id` to `expression`; then reads until the
   * answer is no longer the held one (the definitions reach the datafile-service by event). The first and the last samples.
   */
  async function beforeAndAfterEdit(name: string, id: string, expression: string): Promise<[(number | null)[], (number | null)[]]> {
    const first = await read(() => channel(name));
    const tag = first.reply.headers[REPLY_ANSWER_TAG];
    expect(tag).toBeDefined();
    expect((await read(() => channel(name))).reply.headers[REPLY_ANSWER_HELD]).toBe(tag);
    expect((await send('PUT', `/MathChannels/${id}`, { ParameterUpdates: [{ Name: 'Expression', Value: expression }] })).status).toBeLessThan(300);
    let now = first;
    for (const deadline = Date.now() + 10_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 50))) {
      now = await read(() => channel(name));
      if (now.reply.headers[REPLY_ANSWER_HELD] === undefined) break;
    }
    expect(now.reply.headers[REPLY_ANSWER_HELD]).toBeUndefined();
    const values = (body: Buffer) => (JSON.parse(body.toString()) as { samples: (number | null)[] }).samples;
    return [values(first.body), values(now.body)];
  }

  /** The value at the first sample of `before` over 10, before and after. */
  const atFast = (before: (number | null)[], after: (number | null)[]) => {
    const k = before.findIndex((v) => typeof v === 'number' && v > 10);
    expect(after).toHaveLength(before.length);
    return [before[k] as number, after[k] as number];
  };

  test('when a math channel\'s definition changes, then its read is evaluated anew, not the held answer of the old definition', async () => {
    const id = await define('Held speed', '"Ground Speed" / 3.6');
    const [was, is] = atFast(...(await beforeAndAfterEdit('Held speed', id, '"Ground Speed" / 1.8')));
    expect(is).toBeCloseTo(was * 2, 6);
  }, 60_000);

  test('when a math channel that another reads changes, then the reader\'s read is evaluated anew too', async () => {
    const inner = await define('Chain inner', '"Ground Speed" / 3.6');
    await define('Chain outer', '"Chain inner" * 10');
    const [was, is] = atFast(...(await beforeAndAfterEdit('Chain outer', inner, '"Ground Speed" / 7.2')));
    expect(is).toBeCloseTo(was / 2, 6);
  }, 60_000);
});
