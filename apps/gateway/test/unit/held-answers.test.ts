import { PassThrough, Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { HeldAnswers } from '../../src/domain/held-answers';

/** The keeper of an answer that can be held (the test fails when it cannot). */
function keeperOf(held: HeldAnswers, ...args: Parameters<HeldAnswers['keeper']>): NonNullable<ReturnType<HeldAnswers['keeper']>> {
  const keeper = held.keeper(...args);
  if (!keeper) throw new Error('expected the answer to be keepable');
  return keeper;
}

/** Streams `chunks` through the keeper into a sink (as the claimed body goes to the client); resolves with what reached the sink. */
async function pass(keeper: NonNullable<ReturnType<HeldAnswers['keeper']>>, chunks: Buffer[]): Promise<Buffer> {
  const out: Buffer[] = [];
  const sink = new Writable({ write: (chunk: Buffer, _e, done) => (out.push(chunk), done()) });
  await pipeline(Readable.from(chunks), keeper, sink);
  return Buffer.concat(out);
}

describe('the answers a gateway holds (HELD_ANSWERS_BYTES)', () => {
  const KiB = 1024;

  test('when a claimed body passes whole, then it reaches the client unchanged and is held by its request, with its tag and media type, as one buffer', async () => {
    const held = new HeldAnswers(1024 * KiB);
    const chunks = [Buffer.alloc(10 * KiB, 1), Buffer.alloc(5 * KiB, 2)];
    const keeper = keeperOf(held, 'req', 'tag-1', 'application/x-service-channels', 15 * KiB);
    expect((await pass(keeper, chunks)).equals(Buffer.concat(chunks))).toBe(true);
    const answer = held.get('req');
    expect(answer).toMatchObject({ tag: 'tag-1', contentType: 'application/x-service-channels' });
    expect(answer?.bytes.equals(Buffer.concat(chunks))).toBe(true);
    // Its own buffer: not a view into the chunks it came in.
    expect(answer?.bytes.buffer).not.toBe(chunks[0]?.buffer);
    expect(held.heldBytes).toBe(15 * KiB);
  });

  test('when an answer is longer than an eighth of the bound, then it is not held: known up front (no keeper), or found as it passes', async () => {
    const held = new HeldAnswers(80 * KiB);
    expect(held.keeper('req', 'tag', 'application/json', 10 * KiB + 1)).toBeUndefined();
    const chunks = [Buffer.alloc(6 * KiB), Buffer.alloc(6 * KiB)];
    const body = await pass(keeperOf(held, 'req', 'tag', 'application/json', undefined), chunks);
    expect(body.byteLength).toBe(12 * KiB);
    expect(held.get('req')).toBeUndefined();
    expect(held.heldBytes).toBe(0);
  });

  test('when the body breaks off, then nothing is held (an aborted transfer is never sent again as whole)', async () => {
    const held = new HeldAnswers(1024 * KiB);
    const source = new PassThrough();
    const keeper = keeperOf(held, 'req', 'tag', 'application/json', undefined);
    const done = pipeline(source, keeper, new Writable({ write: (_c, _e, next) => next() }));
    source.write(Buffer.alloc(KiB));
    source.destroy(new Error('the service went mid-answer'));
    await expect(done).rejects.toThrow('the service went mid-answer');
    expect(held.get('req')).toBeUndefined();
  });

  test('when more is held than the bound, then the least recently used answers go first; with a bound of 0 nothing is held', async () => {
    const held = new HeldAnswers(64 * KiB);
    for (const key of ['a', 'b', 'c']) await pass(keeperOf(held, key, key, 'application/json', 8 * KiB), [Buffer.alloc(8 * KiB)]);
    held.get('a');
    for (const key of ['d', 'e', 'f', 'g', 'h', 'i']) await pass(keeperOf(held, key, key, 'application/json', 8 * KiB), [Buffer.alloc(8 * KiB)]);
    expect(held.heldBytes).toBeLessThanOrEqual(64 * KiB);
    expect(held.get('a')).toBeDefined();
    expect(held.get('b')).toBeUndefined();
    expect(new HeldAnswers(0).keeper('x', 'x', 'application/json', 1)).toBeUndefined();
  });

  test('the key of a request is its service, command and message, hashed (a batch may name thousands of channels)', () => {
    expect(HeldAnswers.keyOf('datafile', 'datafile.channel', { id: '1', channel: 'A' })).toBe(HeldAnswers.keyOf('datafile', 'datafile.channel', { id: '1', channel: 'A' }));
    expect(HeldAnswers.keyOf('datafile', 'datafile.channel', { id: '1', channel: 'A' })).not.toBe(HeldAnswers.keyOf('datafile', 'datafile.channel', { id: '1', channel: 'B' }));
    expect(HeldAnswers.keyOf('datafile', 'datafile.channels', { channels: Array.from({ length: 40_000 }, (_, i) => `Channel ${i}`) })).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  test('when copies in transfer would pass the bound, then the next transfer keeps none; a finished or broken one gives its reservation back', async () => {
    const held = new HeldAnswers(64 * KiB);
    const open = Array.from({ length: 8 }, (_, i) => keeperOf(held, `k${i}`, 't', 'application/json', undefined));
    expect(held.reservedBytes).toBe(64 * KiB);
    expect(held.keeper('k8', 't', 'application/json', 1)).toBeUndefined();
    await pass(open[0] as NonNullable<ReturnType<HeldAnswers['keeper']>>, [Buffer.alloc(KiB)]);
    const broken = open[1] as NonNullable<ReturnType<HeldAnswers['keeper']>>;
    broken.on('error', () => undefined);
    broken.destroy(new Error('the client went'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(held.reservedBytes).toBe(48 * KiB);
    expect(held.keeper('k9', 't', 'application/json', 1)).toBeDefined();
  });

  test('when a body of announced length ends short, then it is not held', async () => {
    const held = new HeldAnswers(1024 * KiB);
    await pass(keeperOf(held, 'short', 't', 'application/json', 10 * KiB), [Buffer.alloc(4 * KiB)]);
    expect(held.get('short')).toBeUndefined();
  });
});
