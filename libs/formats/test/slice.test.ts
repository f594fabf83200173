import { type ChannelData, InvalidSliceError, openDataFile, sliceByLap, sliceByWindow } from '../src';
import { readFixture } from './fixtures';

describe('slicing', () => {
  const ld = openDataFile(readFixture('Sample1.ld'));
  const speed = ld.readChannel('Ground Speed'); // 10 Hz from 0 s
  const csv = openDataFile(readFixture('csv_sample.csv'));
  const rpm = csv.readChannel('RPM');
  const timestamps = rpm.time.kind === 'explicit' ? rpm.time.timestamps : new Float64Array(0);

  describe('implicit time base', () => {
    it('when lap 2 [159.31, 222.99) is sliced at 10 Hz, then samples 1594..2229 with start 159.4 (the first sample inside the lap)', () => {
      const lap = sliceByLap(speed, ld.laps, 2);
      expect(lap.startTime).toBeCloseTo(159.4, 9);
      expect(lap.samples).toHaveLength(636);
      expect(lap.samples[0]).toBe(speed.samples[1594]);
      expect(lap.samples[635]).toBe(speed.samples[2229]);
      expect(lap.time).toEqual({ kind: 'implicit', start: lap.startTime, frequency: 10 });
    });

    it('when consecutive laps are sliced, then they tile the channel with no sample lost or repeated', () => {
      const total = ld.laps.reduce((n, _, i) => n + sliceByLap(speed, ld.laps, i).samples.length, 0);
      expect(total).toBe(speed.samples.length);
      expect(sliceByLap(speed, ld.laps, 5).samples.at(-1)).toBe(speed.samples.at(-1));
    });

    it('when a window starts on a sample and ends on another, then the start is in and the end is out', () => {
      const w = sliceByWindow(speed, 10, 0.5);
      expect(w.samples).toHaveLength(5);
      expect(w.samples[0]).toBe(speed.samples[100]);
      expect(w.startTime).toBe(10);
    });

    it('when a window starts between samples, then the slice starts at the next sample and reports its time', () => {
      const w = sliceByWindow(speed, 10.05, 0.3);
      expect(w.startTime).toBeCloseTo(10.1, 12);
      expect(w.samples).toHaveLength(3);
      expect(w.samples[0]).toBe(speed.samples[101]);
    });

    it('when a window runs past either end, then it is clipped to the data', () => {
      expect(sliceByWindow(speed, -5, 5.2).samples).toHaveLength(2);
      expect(sliceByWindow(speed, 453.9, 100).samples).toHaveLength(1);
      expect(sliceByWindow(speed, 500, 10).samples).toHaveLength(0);
      expect(sliceByWindow(speed, 500, 10).startTime).toBe(500);
    });

    it('when gaps exist, then the slice carries its part of the gap mask', () => {
      const data: ChannelData = { ...speed, samples: Float64Array.from([1, NaN, 3, 4]), gaps: Uint8Array.from([0, 1, 0, 0]), time: { kind: 'implicit', start: 0, frequency: 1 } };
      expect(Array.from(sliceByWindow(data, 1, 2).gaps ?? [])).toEqual([1, 0]);
    });
  });

  describe('window edges on a slow or far-off time base', () => {
    // Rows every 100 s: the CSV reader gives them a regular (implicit) time base at 0.01 Hz.
    const slow = openDataFile(new TextEncoder().encode('Time,V\n0,1\n100,2\n200,3\n')).readChannel('V');

    it('when a window of 1e-7 s starts on the sample at 0 s of a 0.01 Hz channel, then it holds that sample', () => {
      expect(slow.time.kind).toBe('implicit');
      expect(Array.from(sliceByWindow(slow, 0, 1e-7).samples)).toEqual([1]);
    });

    it('when a window starts 1e-7 s after the sample at 100 s of a 0.01 Hz channel, then that sample is not in it', () => {
      const w = sliceByWindow(slow, 100.0000001, 1);
      expect(Array.from(w.samples)).toEqual([]);
      expect(Array.from(sliceByWindow(slow, 99.9999999, 1).samples)).toEqual([2]);
      expect(Array.from(sliceByWindow(slow, 0, 99.9999999).samples)).toEqual([1]);
    });

    it('when samples are 1e15 s apart, then a window starting or ending 1 s off a sample keeps or drops it by its time', () => {
      const far: ChannelData = { ...speed, samples: Float64Array.of(1, 2), gaps: undefined, time: { kind: 'implicit', start: 0, frequency: 1e-15 } };
      expect(Array.from(sliceByWindow(far, 1e15 + 1000, 1e6).samples)).toEqual([]);
      expect(Array.from(sliceByWindow(far, 1e15 - 1000, 1e6).samples)).toEqual([2]);
      expect(Array.from(sliceByWindow(far, 0, 1e15 - 1000).samples)).toEqual([1]);
      expect(Array.from(sliceByWindow(far, 1e15, 1).samples)).toEqual([2]);
    });
  });

  describe('explicit time base', () => {
    it('when the window starts exactly on a timestamp, then that sample is the first; one at the end is excluded', () => {
      const start = timestamps[100];
      const end = timestamps[200];
      const w = sliceByWindow(rpm, start, end - start);
      expect(w.samples).toHaveLength(100);
      expect(w.startTime).toBe(start);
      expect(w.samples[0]).toBe(rpm.samples[100]);
      expect(w.samples[99]).toBe(rpm.samples[199]);
      if (w.time.kind !== 'explicit') throw new Error('expected explicit');
      expect(w.time.timestamps[0]).toBe(start);
      expect(w.time.timestamps).toHaveLength(100);
    });

    it('when the window starts between timestamps, then it reports the first sample time inside it', () => {
      const between = (timestamps[10] + timestamps[11]) / 2;
      const w = sliceByWindow(rpm, between, 1);
      expect(w.startTime).toBe(timestamps[11]);
    });
  });

  it('when the lap index or window is invalid, then INVALID_SLICE', () => {
    expect(() => sliceByLap(speed, ld.laps, 6)).toThrow(InvalidSliceError);
    expect(() => sliceByLap(speed, ld.laps, -1)).toThrow(InvalidSliceError);
    expect(() => sliceByWindow(speed, 0, -1)).toThrow(expect.objectContaining({ code: 'INVALID_SLICE' }));
    expect(() => sliceByWindow(speed, NaN, 1)).toThrow(InvalidSliceError);
  });

  it('when a slice is taken, then it owns its buffers (transferable without detaching the source)', () => {
    const w = sliceByWindow(speed, 0, 1);
    expect(w.samples.buffer).not.toBe(speed.samples.buffer);
    expect(w.samples.byteOffset).toBe(0);
  });
});
