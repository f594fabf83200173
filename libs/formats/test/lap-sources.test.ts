import { bytesSource, CountingSource, DataFileLimitError, openDataFile, openLdSource, writeLdFile } from '../src';

const csv = (text: string) => new TextEncoder().encode(text);

describe('laps from other sources and mixed per-lap datasets', () => {
  it('when a .ld file has a Beacon pulse channel but no Lap Number, then laps start at its rising edges', () => {
    const beacon = Array.from({ length: 100 }, (_, i) => (i === 30 || i === 31 || i === 70 ? 1 : 0));
    const file = openDataFile(writeLdFile({ channels: [{ name: 'Beacon', frequency: 10, samples: beacon }] }));
    expect(file.laps.map((l) => [l.startTime, l.endTime, l.kind])).toEqual([
      [0, 3, 'out'],
      [3, 7, 'flying'],
      [7, 10, 'in'],
    ]);
  });

  describe('a .ld with Running Lap Time but neither Lap Number nor Beacon', () => {
    const edges = (laps: readonly { startTime: number; endTime: number; kind: string }[]) => laps.map((l) => [Math.round(l.startTime * 1e6) / 1e6, Math.round(l.endTime * 1e6) / 1e6, l.kind]);
    const timerOnly = (run: (i: number) => number, options: { n?: number; frequency?: number; unit?: string } = {}) =>
      writeLdFile({ channels: [{ name: 'Running Lap Time', unit: options.unit ?? 's', frequency: options.frequency ?? 10, type: 'int32', scaling: { dec: 2 }, samples: Array.from({ length: options.n ?? 200 }, (_, i) => run(i)) }] });
    const bothReaders = async (bytes: Uint8Array, options: { maxLaps?: number } = {}) => {
      const whole = edges(openDataFile(bytes, options).laps);
      expect(edges((await openLdSource(bytesSource(bytes), options)).laps)).toEqual(whole);
      return whole;
    };
    // 10 Hz, 20 s: the timer is held at 0 until it decoded the first beacon (0.5 s since the line at 2.9 s), then
    // restarts from the lines at 6.23 s and 13.48 s, read 2 s late (8.3 s: 2.07; 15.5 s: 2.02).
    const lines = [2.4, 6.23, 13.48];
    const timer = (i: number) => {
      const t = i / 10;
      if (t < 2.9) return 0;
      const line = t < 8.3 ? lines[0] : t < 15.5 ? lines[1] : lines[2];
      return Math.round((t - (line as number)) * 100) / 100;
    };

    it('when its timer restarts, then each restart is a lap from the line it reads, and where it left 0 ends the out-lap, read whole or from its bytes alike', async () => {
      expect(await bothReaders(timerOnly(timer))).toEqual([
        [0, 2.4, 'out'],
        [2.4, 6.23, 'flying'],
        [6.23, 13.48, 'flying'],
        [13.48, 20, 'in'],
      ]);
      // In ms, the same laps.
      expect(await bothReaders(timerOnly((i) => timer(i) * 1000, { unit: 'ms' }))).toEqual(await bothReaders(timerOnly(timer)));
    });

    it('when the timer runs from the first sample (logging started mid-lap), then only its restarts are laps', async () => {
      const midLap = (i: number) => (i < 83 ? Math.round((i / 10 + 40) * 100) / 100 : timer(i));
      expect(await bothReaders(timerOnly(midLap))).toEqual([
        [0, 6.23, 'out'],
        [6.23, 13.48, 'flying'],
        [13.48, 20, 'in'],
      ]);
    });

    it('when the timer dips for one sample and goes on counting, then the dip is no lap; a restart at the last sample is one', async () => {
      const dip = (i: number) => (i === 120 ? 0.3 : timer(i));
      expect(await bothReaders(timerOnly(dip))).toEqual(await bothReaders(timerOnly(timer)));
      // A restart at the very last sample (19.9 s, 0.4 s since the line): a lap of its own.
      const last = (i: number) => (i === 199 ? 0.4 : timer(i));
      expect((await bothReaders(timerOnly(last))).at(-1)).toEqual([19.5, 20, 'in']);
    });

    it('when the timer is in a unit that is not time, or never leaves 0, then the file has no laps', async () => {
      expect(await bothReaders(timerOnly(timer, { unit: 'm' }))).toEqual([]);
      expect(await bothReaders(timerOnly(() => 0))).toEqual([]);
    });

    it('when the channel is longer than one read, then restarts at the reads\' edges are found as the whole file\'s reader finds them, and past maxLaps the file is refused in both readers', async () => {
      // 1 kHz for 300 s: a restart 0.5 s after lines at 10 s, then at sample 65,536 (the first of the second read) and
      // 131,071 (the last of the second read), and at 200,000.
      const restarts = [10_000, 65_536, 131_071, 200_000];
      const run = (i: number) => {
        const k = restarts.filter((r) => i >= r).length;
        return k === 0 ? i / 1000 + 30 : (i - (restarts[k - 1] as number) + 500) / 1000;
      };
      const bytes = timerOnly(run, { n: 300_000, frequency: 1000 });
      expect((await bothReaders(bytes)).map((lap) => lap[0])).toEqual([0, 9.5, 65.036, 130.571, 199.5]);
      expect(() => openDataFile(bytes, { maxLaps: 4 })).toThrow(DataFileLimitError);
      await expect(openLdSource(bytesSource(bytes), { maxLaps: 4 })).rejects.toThrow(expect.objectContaining({ limit: 'laps', max: 4 }));
      expect(await bothReaders(bytes, { maxLaps: 5 })).toHaveLength(5);
    });
  });

  describe('a .ld lap counter placed by its Running Lap Time', () => {
    // 10 Hz, 20 s. The car crosses the line at 6.23 s and 13.48 s; the logger moves Lap Number 2 s later (8.3 s,
    // 15.5 s), when Running Lap Time, restarted from the line, reads 2.07 s and 2.02 s.
    const crossings = [6.23, 13.48];
    const lapNumber: number[] = Array.from({ length: 200 }, (_, i) => (i < 83 ? 0 : i < 155 ? 1 : 2));
    const runningAt = (i: number, counter = lapNumber) => {
      const t = i / 10;
      const since = counter[i] === 0 ? t + 30 : t - crossings[counter[i] - 1];
      return Math.round(since * 100) / 100;
    };
    const ld = (running: { unit?: string; value?: (i: number) => number } | null) =>
      writeLdFile({
        channels: [
          { name: 'Lap Number', frequency: 10, samples: lapNumber },
          ...(running ? [{ name: 'Running Lap Time', unit: running.unit ?? 's', frequency: 10, type: 'int32' as const, scaling: { dec: 2 }, samples: Array.from({ length: 200 }, (_, i) => (running.value ?? runningAt)(i)) }] : []),
        ],
      });
    const edges = (laps: readonly { startTime: number; endTime: number }[]) => laps.map((l) => [Math.round(l.startTime * 1e6) / 1e6, Math.round(l.endTime * 1e6) / 1e6]);

    it('when the file has Running Lap Time, then the laps start at the crossings, read whole or from its bytes alike', async () => {
      const bytes = ld({});
      const expected = [
        [0, 6.23],
        [6.23, 13.48],
        [13.48, 20],
      ];
      expect(edges(openDataFile(bytes).laps)).toEqual(expected);
      expect(edges((await openLdSource(bytesSource(bytes))).laps)).toEqual(expected);
    });

    it('when it has none, or in a unit that is not time, then the laps start where Lap Number moves', async () => {
      const counted = [
        [0, 8.3],
        [8.3, 15.5],
        [15.5, 20],
      ];
      expect(edges(openDataFile(ld(null)).laps)).toEqual(counted);
      expect(edges(openDataFile(ld({ unit: 'm' })).laps)).toEqual(counted);
      expect(edges((await openLdSource(bytesSource(ld({ unit: 'km/h' })))).laps)).toEqual(counted);
    });

    it('when the lap channel is longer than one read, then it is scanned in reads of at most 65,536 samples, laps changing at the reads\' edges too, as the whole file\'s reader finds them', async () => {
      // 300,000 int32 samples at 1 kHz: Lap Number moves at samples 65,536 (the first sample of the second read),
      // 131,071 (the last of the second) and 200,000; Running Lap Time restarts there, 0.5 s after each line.
      const moves = [65_536, 131_071, 200_000];
      const lapAt = (i: number) => moves.filter((m) => i >= m).length;
      const bytes = writeLdFile({
        channels: [
          { name: 'Lap Number', frequency: 1000, type: 'int32', samples: Array.from({ length: 300_000 }, (_, i) => lapAt(i)) },
          { name: 'Running Lap Time', unit: 's', frequency: 1000, type: 'int32', scaling: { dec: 3 }, samples: Array.from({ length: 300_000 }, (_, i) => (lapAt(i) === 0 ? i / 1000 + 5 : (i - moves[lapAt(i) - 1] + 500) / 1000)) },
        ],
      });
      const source = new CountingSource(bytesSource(bytes));
      const laps = (await openLdSource(source)).laps;
      expect(edges(laps)).toEqual(edges(openDataFile(bytes).laps));
      expect(laps.slice(1).map((l) => l.startTime)).toEqual(moves.map((m) => (m - 500) / 1000));
      // The channel list aside, no read is longer than one chunk of 4-byte samples and the sample before it (the whole channel is 1.2 MB).
      expect(Math.max(...source.reads.slice(1).map((r) => r.length))).toBe((65_536 + 1) * 4);
    });

    it('when Running Lap Time is faster than Lap Number, or restarts a sample after it moved, then the laps still start at the crossings, in both readers', async () => {
      // Lap Number at 1 Hz moves at 9 s and 16 s; Running Lap Time at 10 Hz restarts at 8.3 s and 15.5 s (before the
      // counter's sample), reading the time since the crossings at 6.23 s and 13.48 s.
      const fast = writeLdFile({
        channels: [
          { name: 'Lap Number', frequency: 1, samples: Array.from({ length: 20 }, (_, i) => (i < 9 ? 0 : i < 16 ? 1 : 2)) },
          { name: 'Running Lap Time', unit: 's', frequency: 10, type: 'int32', scaling: { dec: 2 }, samples: Array.from({ length: 200 }, (_, i) => runningAt(i)) },
        ],
      });
      // Both at 10 Hz, Running Lap Time restarting one sample after Lap Number moved (8.4 s, 15.6 s).
      const late = writeLdFile({
        channels: [
          { name: 'Lap Number', frequency: 10, samples: lapNumber },
          { name: 'Running Lap Time', unit: 's', frequency: 10, type: 'int32', scaling: { dec: 2 }, samples: Array.from({ length: 200 }, (_, i) => runningAt(i, lapNumber.map((_, k) => lapNumber[Math.max(0, k - 1)] as number))) },
        ],
      });
      const expected = [
        [0, 6.23],
        [6.23, 13.48],
        [13.48, 20],
      ];
      for (const bytes of [fast, late]) {
        expect(edges(openDataFile(bytes).laps)).toEqual(expected);
        expect(edges((await openLdSource(bytesSource(bytes))).laps)).toEqual(expected);
      }
    });

    it('when it is in ms, then it is read as ms', () => {
      const file = openDataFile(ld({ unit: 'ms', value: (i) => runningAt(i) * 1000 }));
      expect(edges(file.laps)).toEqual([
        [0, 6.23],
        [6.23, 13.48],
        [13.48, 20],
      ]);
    });

    it('when it did not restart where the counter moved, or its crossing would fall before the previous lap, then that boundary stays where the counter put it', () => {
      // Running Lap Time keeps counting through the first move (no restart); at the second it claims a crossing 9 s
      // back, before the first boundary (8.3 s): neither is believed.
      const value = (i: number) => (i < 155 ? i / 10 : i / 10 - 15.5 + 9);
      expect(edges(openDataFile(ld({ value })).laps)).toEqual([
        [0, 8.3],
        [8.3, 15.5],
        [15.5, 20],
      ]);
    });
  });

  describe('a .ld whose Running Lap Time starts from 0 before Lap Number first moves (the out-lap MoTeC\'s logger does not count)', () => {
    // 10 Hz, 20 s, as above: the car crosses the line at 2.4 s (the end of the out-lap), 6.23 s and 13.48 s. The logger
    // starts its timer at the first crossing (Running Lap Time reads 0 until it decoded the beacon at 2.9 s, then 0.5 s
    // since the line) but moves Lap Number only when that first timed lap ends (8.3 s), as in Sample1.ld.
    const crossings = [2.4, 6.23, 13.48];
    const lapNumber = (i: number) => (i < 83 ? 0 : i < 155 ? 1 : 2);
    const running = (i: number) => {
      const since = i < 29 ? 0 : i / 10 - crossings[lapNumber(i)];
      return Math.round(since * 100) / 100;
    };
    const ld = (lap: (i: number) => number, run: (i: number) => number, lapChannel = 'Lap Number', unit = 's') =>
      writeLdFile({
        channels: [
          { name: lapChannel, frequency: 10, samples: Array.from({ length: 200 }, (_, i) => lap(i)) },
          { name: 'Running Lap Time', unit, frequency: 10, type: 'int32', scaling: { dec: 2 }, samples: Array.from({ length: 200 }, (_, i) => run(i)) },
        ],
      });
    const edges = (laps: readonly { startTime: number; endTime: number; kind: string }[]) => laps.map((l) => [Math.round(l.startTime * 1e6) / 1e6, Math.round(l.endTime * 1e6) / 1e6, l.kind]);
    const bothReaders = async (bytes: Uint8Array) => {
      const whole = edges(openDataFile(bytes).laps);
      expect(edges((await openLdSource(bytesSource(bytes))).laps)).toEqual(whole);
      return whole;
    };

    it('when the timer starts before the first move, then the out-lap ends where it started and the first timed lap is a flying lap of its own, in both readers', async () => {
      const expected = [
        [0, 2.4, 'out'],
        [2.4, 6.23, 'flying'],
        [6.23, 13.48, 'flying'],
        [13.48, 20, 'in'],
      ];
      expect(await bothReaders(ld(lapNumber, running))).toEqual(expected);
      expect(await bothReaders(ld(lapNumber, (i) => running(i) * 1000, 'Lap Number', 'ms'))).toEqual(expected);
    });

    it('when the timer runs from the file\'s first sample (logging started mid-lap), or starts at the file\'s start, then no boundary is added', async () => {
      const counted = [
        [0, 6.23, 'out'],
        [6.23, 13.48, 'flying'],
        [13.48, 20, 'in'],
      ];
      // Running from the first sample: 12.5 s into a lap the file does not hold.
      expect(await bothReaders(ld(lapNumber, (i) => (i < 83 ? 12.5 + i / 10 : running(i))))).toEqual(counted);
      // 0 at the first sample, 0.1 s at the second: the timer started at 0 s, the file's start, not a crossing in it.
      expect(await bothReaders(ld(lapNumber, (i) => (i < 83 ? i / 10 : running(i))))).toEqual(counted);
    });

    it('when the timer starts with the first move (a logger that counts its first beacon), then that move goes back to the crossing and no lap is added', async () => {
      // Lap Number moves at 2.9 s, when the timer starts reading 0.5 s: one crossing, at 2.4 s.
      const counting = (i: number) => (i < 29 ? 0 : i < 83 ? 1 : i < 155 ? 2 : 3);
      expect(await bothReaders(ld(counting, running))).toEqual([
        [0, 2.4, 'out'],
        [2.4, 6.23, 'flying'],
        [6.23, 13.48, 'flying'],
        [13.48, 20, 'in'],
      ]);
      // 0 until Lap Number first moves (8.3 s), starting there 2.07 s after the line: the first lap starts at 6.23 s (it
      // stayed at 8.3 s before, no restart being there).
      expect(await bothReaders(ld(lapNumber, (i) => (i < 83 ? 0 : running(i))))).toEqual([
        [0, 6.23, 'out'],
        [6.23, 13.48, 'flying'],
        [13.48, 20, 'in'],
      ]);
    });

    it('when Lap Number never moves but the timer starts from 0, then that start is the one boundary: an out-lap and an in-lap', async () => {
      expect(await bothReaders(ld(() => 0, (i) => (i < 29 ? 0 : Math.round((i / 10 - 2.4) * 100) / 100)))).toEqual([
        [0, 2.4, 'out'],
        [2.4, 20, 'in'],
      ]);
      // Never leaving 0: no laps.
      expect(await bothReaders(ld(() => 0, () => 0))).toEqual([]);
    });

    it('when the laps come from a Beacon pulse channel or an .ldx, then the timer\'s start adds nothing', async () => {
      // Beacon pulses at 6.3 s and 13.5 s; Running Lap Time restarts there (placing them at 6.23 and 13.48 s as before).
      const pulses = (i: number) => (i === 63 || i === 135 ? 1 : 0);
      const timer = (i: number) => (i < 29 ? 0 : Math.round((i / 10 - (i < 63 ? 2.4 : i < 135 ? 6.23 : 13.48)) * 100) / 100);
      expect(await bothReaders(ld(pulses, timer, 'Beacon'))).toEqual([
        [0, 6.23, 'out'],
        [6.23, 13.48, 'flying'],
        [13.48, 20, 'in'],
      ]);
      const ldx = '<LDXFile><Layers><Layer><MarkerBlock><MarkerGroup Name="Beacons"><Marker Time="8000000"/></MarkerGroup></MarkerBlock></Layer></Layers></LDXFile>';
      const bytes = ld(lapNumber, running);
      const expected = [
        [0, 8, 'out'],
        [8, 20, 'in'],
      ];
      expect(edges(openDataFile(bytes, { ldx }).laps)).toEqual(expected);
      expect(edges((await openLdSource(bytesSource(bytes), { ldx })).laps)).toEqual(expected);
    });

    it('when the added boundary makes one lap more than maxLaps, then the file is refused in both readers; at maxLaps it opens', async () => {
      const bytes = ld(lapNumber, running);
      expect(() => openDataFile(bytes, { maxLaps: 3 })).toThrow(expect.objectContaining({ limit: 'laps', max: 3 }));
      await expect(openLdSource(bytesSource(bytes), { maxLaps: 3 })).rejects.toThrow(expect.objectContaining({ limit: 'laps', max: 3 }));
      expect(openDataFile(bytes, { maxLaps: 4 }).laps).toHaveLength(4);
      expect((await openLdSource(bytesSource(bytes), { maxLaps: 4 })).laps).toHaveLength(4);
    });

    it('when the channels are long, then Running Lap Time is read from its start only up to its first sample that is not 0, in reads of at most 65,536 samples, and never past the first move\'s window', async () => {
      // 300,000 int32 samples at 1 kHz. Lap Number moves at samples 200,000 and 250,000; Running Lap Time reads 0 until
      // `start` (0.5 s since the line there), then restarts 0.5 s after each line.
      const n = 300_000;
      const moves = [200_000, 250_000];
      const lapAt = (i: number) => moves.filter((m) => i >= m).length;
      const timer = (start: number) => (i: number) => (i < start ? 0 : (i - (lapAt(i) === 0 ? start : moves[lapAt(i) - 1]) + 500) / 1000);
      const long = (lap: (i: number) => number, run: (i: number) => number) =>
        writeLdFile({
          channels: [
            { name: 'Lap Number', frequency: 1000, type: 'int32', samples: Array.from({ length: n }, (_, i) => lap(i)) },
            { name: 'Running Lap Time', unit: 's', frequency: 1000, type: 'int32', scaling: { dec: 3 }, samples: Array.from({ length: n }, (_, i) => run(i)) },
          ],
        });
      const open = async (bytes: Uint8Array) => {
        const source = new CountingSource(bytesSource(bytes));
        const laps = (await openLdSource(source)).laps;
        expect(edges(laps)).toEqual(edges(openDataFile(bytes).laps));
        // The channel list aside, no read is longer than one chunk of 4-byte samples and the sample before it.
        expect(Math.max(...source.reads.slice(1).map((r) => r.length))).toBeLessThanOrEqual((65_536 + 1) * 4);
        // Running Lap Time's samples come last in the file: the sample ranges read of it.
        const at = bytes.length - n * 4;
        const running = source.reads.filter((r) => r.offset >= at).map((r) => [(r.offset - at) / 4, (r.offset - at + r.length) / 4]);
        return { laps: edges(laps), running };
      };
      const started = await open(long(lapAt, timer(100_000)));
      expect(started.laps).toEqual([
        [0, 99.5, 'out'],
        [99.5, 199.5, 'flying'],
        [199.5, 249.5, 'flying'],
        [249.5, 300, 'in'],
      ]);
      // Two reads from its start, stopping in the one that holds sample 100,000; then the windows of the two moves (one
      // period of Lap Number, 1 ms, either side of each and a sample more: [199,998, 200,002) and [249,998, 250,002)),
      // together.
      expect(started.running).toEqual([
        [0, 65_536],
        [65_536, 131_072],
        [199_998, 250_002],
      ]);
      // Still 0 past the first move's window: the scan stops at its end (as far as that window reads), not at the
      // channel's end; no boundary is added and the first move stays where the counter put it (no restart there).
      const late = await open(long(lapAt, timer(210_000)));
      expect(late.laps).toEqual([
        [0, 200, 'out'],
        [200, 249.5, 'flying'],
        [249.5, 300, 'in'],
      ]);
      expect(late.running).toEqual([
        [0, 65_536],
        [65_536, 131_072],
        [131_072, 196_608],
        [196_608, 200_002],
        [199_998, 250_002],
      ]);
      // Lap Number never moves: the whole channel is scanned, in chunks, up to its start at sample 250,000.
      const unmoved = await open(long(() => 0, timer(250_000)));
      expect(unmoved.laps).toEqual([
        [0, 249.5, 'out'],
        [249.5, 300, 'in'],
      ]);
      expect(unmoved.running).toEqual([0, 1, 2, 3].map((k) => [k * 65_536, (k + 1) * 65_536]));
    });
  });

  it('when a file has more laps than maxLaps, or a per-lap dataset more files, then DataFileLimitError naming laps; at maxLaps it opens', () => {
    const fourLaps = csv('Time,Lap\n0,0\n1,1\n2,2\n3,3\n');
    expect(openDataFile(fourLaps, { maxLaps: 4 }).laps).toHaveLength(4);
    expect(() => openDataFile(fourLaps, { maxLaps: 3 })).toThrow(DataFileLimitError);
    expect(() => openDataFile(fourLaps, { maxLaps: 3 })).toThrow('has more than 3 laps; at most 3 are read');
    const lap = csv('Time,Speed\n0,1\n1,2\n');
    expect(openDataFile([lap, lap, lap], { maxLaps: 3 }).laps).toHaveLength(3);
    expect(() => openDataFile([lap, lap, lap, lap], { maxLaps: 3 })).toThrow(expect.objectContaining({ limit: 'laps', max: 3 }));
  });

  it('when a CSV has a Running Lap Time column in s or ms, then it places the Lap column\'s laps at the line, or gives them alone, as a .ld\'s does', () => {
    // 10 Hz from 100 s: lines at 102.4 s (the timer leaves 0 at 102.9 s, reading 0.5) and 106.23 s; the Lap column moves
    // at 108.3 s, 2 s late, when the timer (restarted at the line) reads 2.07.
    const rows = Array.from({ length: 120 }, (_, i) => {
      const t = Math.round((100 + i / 10) * 10) / 10;
      const running = t < 102.9 ? 0 : Math.round((t - (t < 108.3 ? 102.4 : 106.23)) * 100) / 100;
      return { t, lap: t < 108.3 ? 0 : 1, running };
    });
    const edges = (text: string) => openDataFile(csv(text)).laps.map((l) => [Math.round(l.startTime * 1e6) / 1e6, Math.round(l.endTime * 1e6) / 1e6, l.kind]);
    const withCounter = `Time,Lap,Running Lap Time [s]\n${rows.map((r) => `${r.t},${r.lap},${r.running}`).join('\n')}\n`;
    const expected = [
      [100, 102.4, 'out'],
      [102.4, 106.23, 'flying'],
      [106.23, 112, 'in'],
    ];
    expect(edges(withCounter)).toEqual(expected);
    expect(edges(`Time,Running Lap Time [ms]\n${rows.map((r) => `${r.t},${Math.round(r.running * 1000)}`).join('\n')}\n`)).toEqual(expected);
    // In a unit that is not time it is not a timer: the Lap column's laps as it moved.
    expect(edges(`Time,Lap,Running Lap Time [m]\n${rows.map((r) => `${r.t},${r.lap},${r.running}`).join('\n')}\n`)).toEqual([
      [100, 108.3, 'out'],
      [108.3, 112, 'in'],
    ]);
  });

  it('when a generic CSV has a Lap column, then laps start where it changes', () => {
    const file = openDataFile(csv('Time,Lap,Speed\n0,0,1\n0.5,0,2\n1.1,1,3\n1.4,1,4\n2.2,2,5\n'));
    // The last row's lap lasts one mean period (2.2 s over 4 steps): it holds that row, as lap 2 of the Lap column.
    expect(file.laps.map((l) => [l.startTime, l.endTime])).toEqual([
      [0, 1.1],
      [1.1, 2.2],
      [2.2, 2.75],
    ]);
    const times = [0, 0.5, 1.1, 1.4, 2.2];
    expect(file.laps.map((lap) => times.filter((t) => t >= lap.startTime && t < lap.endTime).length)).toEqual([2, 2, 1]);
    expect(times.every((t) => t < file.startTime + file.duration)).toBe(true);
  });

  it('when per-lap files are irregular, then timestamps are shifted onto one axis and concatenated', () => {
    const file = openDataFile([csv('Time,Speed\n0,10\n0.3,11\n1.0,12\n'), csv('Time,Speed\n5,20\n5.4,21\n6.5,22\n')]);
    // Each file lasts one mean period past its last row (0.5 s, 0.75 s), so the next lap starts after it and each lap
    // holds its own file's rows: none shares a time with the next file's first row.
    expect(file.laps.map((l) => [l.startTime, l.endTime])).toEqual([
      [0, 1.5],
      [1.5, 3.75],
    ]);
    const speed = file.readChannel('Speed');
    expect(Array.from(speed.samples)).toEqual([10, 11, 12, 20, 21, 22]);
    if (speed.time.kind !== 'explicit') throw new Error('expected explicit timestamps');
    const times = Array.from(speed.time.timestamps).map((t) => Math.round(t * 1000) / 1000);
    expect(times).toEqual([0, 0.3, 1, 1.5, 1.9, 3]);
    for (const [i, lap] of file.laps.entries()) expect(times.filter((t) => t >= lap.startTime && t < lap.endTime)).toEqual(times.slice(3 * i, 3 * i + 3));
  });

  it('when a per-lap file lacks a channel, then that lap is gaps in the implicit series', () => {
    const lap = (names: string[]) => writeLdFile({ channels: names.map((name) => ({ name, frequency: 2, samples: [1, 2, 3, 4] })) });
    const file = openDataFile([lap(['A', 'B']), lap(['A'])]);
    const b = file.readChannel('B');
    expect(b.samples).toHaveLength(8);
    expect(Array.from(b.gaps ?? [])).toEqual([0, 0, 0, 0, 1, 1, 1, 1]);
    expect(b.samples[5]).toBeNaN();
    expect(file.channels.find((c) => c.name === 'B')?.sampleCount).toBe(8);
  });
});
