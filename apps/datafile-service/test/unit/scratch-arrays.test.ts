import { ScratchArrays } from '../../src/workers/scratch-arrays';

const MiB = 1024 * 1024;

describe('ScratchArrays', () => {
  test('when a task gives its arrays back, then the next task is lent the same memory, the smallest buffer that holds each array', () => {
    const scratch = new ScratchArrays(64 * MiB);
    const first = scratch.lend();
    const big = first.take(100_000);
    const small = first.take(1_000);
    expect([big.length, small.length]).toEqual([100_000, 1_000]);
    first.giveBack();
    const second = scratch.lend();
    const again = second.take(900);
    const larger = second.take(50_000);
    expect(again.buffer).toBe(small.buffer);
    expect(larger.buffer).toBe(big.buffer);
    // A view of the buffer's start, exactly as long as asked.
    expect([again.byteOffset, again.length, larger.length]).toEqual([0, 900, 50_000]);
    // Nothing free holds a third: new memory.
    expect(second.take(10).buffer).not.toBe(small.buffer);
  });

  test('when the only free buffer is over twice the size asked, then it is not lent: a new one is, and the large one waits for a large array', () => {
    const scratch = new ScratchArrays(64 * MiB);
    const first = scratch.lend();
    const large = first.take(400_000);
    first.giveBack();
    const next = scratch.lend();
    const small = next.take(150_000);
    expect(small.buffer).not.toBe(large.buffer);
    expect(next.take(360_000).buffer).toBe(large.buffer);
  });

  test('when arrays are lent, then no other lease is lent them until they are given back', () => {
    const scratch = new ScratchArrays(64 * MiB);
    const one = scratch.lend();
    const a = one.take(1_000);
    one.giveBack();
    const two = scratch.lend();
    const three = scratch.lend();
    const b = two.take(1_000);
    const c = three.take(1_000);
    expect(b.buffer).toBe(a.buffer);
    expect(c.buffer).not.toBe(b.buffer);
  });

  test('when more than retainBytes is given back, then the smallest buffers are kept up to it and the rest dropped', () => {
    const scratch = new ScratchArrays(MiB);
    const lease = scratch.lend();
    const sizes = [16_384, 65_536, 131_072, 262_144];
    const arrays = sizes.map((n) => lease.take(n));
    lease.giveBack();
    // 128 KiB + 512 KiB fit under 1 MiB; with 1 MiB more they would not; the 2 MiB one alone is over it.
    expect(scratch.kept).toBe(16_384 * 8 + 65_536 * 8);
    const next = scratch.lend();
    expect(next.take(16_384).buffer).toBe(arrays[0]?.buffer);
    expect(next.take(65_536).buffer).toBe(arrays[1]?.buffer);
    expect(next.take(131_072).buffer).not.toBe(arrays[2]?.buffer);
  });

  test('when a lease has given its arrays back, then it lends no more, and giving back again changes nothing', () => {
    const scratch = new ScratchArrays(MiB);
    const lease = scratch.lend();
    lease.take(10);
    lease.giveBack();
    lease.giveBack();
    expect(scratch.kept).toBe(80);
    expect(() => lease.take(10)).toThrow('given back');
  });

  test('when a task gives one array back before it ends, then its next array of that size is the same memory, and the task keeps the others', () => {
    const scratch = new ScratchArrays(64 * MiB);
    const lease = scratch.lend();
    const result = lease.take(100_000);
    const series = lease.take(100_000);
    lease.release(series);
    const next = lease.take(100_000);
    expect(next.buffer).toBe(series.buffer);
    expect(next.buffer).not.toBe(result.buffer);
    lease.release(next);
    // Given back once: not again, and no other lease is lent what this task still holds.
    expect(() => lease.release(next)).toThrow('not lent');
    expect(scratch.lend().take(100_000).buffer).toBe(series.buffer);
    expect(scratch.lend().take(100_000).buffer).not.toBe(result.buffer);
    lease.giveBack();
    expect(scratch.kept).toBe(100_000 * 8);
  });

  test('when a lent buffer was moved to another thread, then it is not kept', () => {
    const scratch = new ScratchArrays(MiB);
    const lease = scratch.lend();
    const moved = lease.take(1_000);
    structuredClone(moved.buffer, { transfer: [moved.buffer as ArrayBuffer] });
    lease.giveBack();
    expect(scratch.kept).toBe(0);
  });
});
