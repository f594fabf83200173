// Generates a large synthetic MoTeC .ld file for benchmarks, streamed to disk chunk by chunk so the samples are
// never held in memory. Used by tools/bench/formats.bench.ts; the command line is in main.ts.
import { closeSync, openSync, writeSync } from 'node:fs';
import { encodeLdFile, type LdChannelInput } from '@pitwall/formats';

export interface GenLdOptions {
  /** Seconds of data. */
  duration: number;
  /** Channel rates in Hz with how many channels run at each. */
  rates: { hz: number; count: number }[];
  /** Adds a 100 Hz `Throttle` (%) and a 50 Hz `Steer` (deg) that lap with Ground Speed: the math-channels bench's inputs. */
  driverChannels?: boolean;
}

/**
 * 200 channels, one hour, 20 to 1000 Hz (plus a 10 Hz Lap Number, a 100 Hz Ground Speed and a 100 Hz Gyro Yaw Velocity):
 * about 490 MB of int16 samples.
 */
export const DEFAULT_GEN_LD: GenLdOptions = {
  duration: 3600,
  rates: [
    { hz: 1000, count: 44 },
    { hz: 500, count: 20 },
    { hz: 200, count: 36 },
    { hz: 100, count: 50 },
    { hz: 50, count: 29 },
    { hz: 20, count: 20 },
  ],
};

const LAP_SECONDS = 90;
const PERIOD = 4096;

export function generateLdFile(path: string, options: GenLdOptions = DEFAULT_GEN_LD): { bytes: number; channels: number; samples: number } {
  const channels: LdChannelInput[] = [];
  for (const { hz, count } of options.rates) {
    for (let k = 0; k < count; k++) channels.push(syntheticChannel(channels.length, hz, options.duration));
  }
  channels.push({
    name: 'Lap Number',
    frequency: 10,
    sampleCount: options.duration * 10,
    fill: (first, out) => {
      for (let i = 0; i < out.length; i++) out[i] = Math.floor((first + i) / (10 * LAP_SECONDS));
    },
  });
  channels.push(groundSpeed(options.duration));
  channels.push(yawVelocity(options.duration));
  if (options.driverChannels) channels.push(throttle(options.duration), steer(options.duration));
  const fd = openSync(path, 'w');
  let bytes = 0;
  try {
    for (const chunk of encodeLdFile({ properties: { eventName: 'Synthetic', venueName: 'Bench', carId: 'B1', outingTime: '2026-01-01T12:00:00' }, channels })) {
      writeSync(fd, chunk);
      bytes += chunk.length;
    }
  } finally {
    closeSync(fd);
  }
  return { bytes, channels: channels.length, samples: channels.reduce((n, c) => n + (c.sampleCount ?? 0), 0) };
}

/** A scaled int16 channel (dec 1) cycling through one precomputed wave, so generation costs no trigonometry per sample. */
function syntheticChannel(index: number, hz: number, duration: number): LdChannelInput {
  const wave = new Float64Array(PERIOD);
  for (let i = 0; i < PERIOD; i++) wave[i] = Math.round(1000 * Math.sin((2 * Math.PI * i * (1 + (index % 7))) / PERIOD) + 10 * index) / 10;
  return {
    name: `Synthetic ${String(index).padStart(3, '0')} ${hz}Hz`,
    unit: 'u',
    frequency: hz,
    scaling: { dec: 1 },
    sampleCount: hz * duration,
    fill: (first, out) => {
      for (let i = 0; i < out.length; i++) out[i] = wave[(first + i) % PERIOD];
    },
  };
}

/** A channel whose laps share one shape: its name, unit and decimals (`scaling.dec`), and its value along a lap. */
interface LappedChannel {
  name: string;
  unit: string;
  dec: number;
  /** The value at the fraction `p` of lap `lap` (from 0), in units of its last decimal (tenths for `dec` 1): rounded to whole ones. */
  scaled(p: number, lap: number): number;
}

/** A channel at `hz` (100 unless given) repeating every 90 s lap, its shape given by `channel.scaled`. */
function lappedChannel(duration: number, channel: LappedChannel, hz = 100): LdChannelInput {
  const stepsPerUnit = 10 ** channel.dec;
  return {
    name: channel.name,
    unit: channel.unit,
    frequency: hz,
    scaling: { dec: channel.dec },
    sampleCount: hz * duration,
    fill: (first, out) => {
      for (let i = 0; i < out.length; i++) {
        const t = (first + i) / hz;
        out[i] = Math.round(channel.scaled((t % LAP_SECONDS) / LAP_SECONDS, Math.floor(t / LAP_SECONDS))) / stepsPerUnit;
      }
    },
  };
}

/**
 * A 100 Hz Ground Speed (km/h) that laps: the same three straights and corners every 90 s lap, each lap a little faster
 * or slower than the others, so distances integrate and lap deltas are not zero.
 */
function groundSpeed(duration: number): LdChannelInput {
  return lappedChannel(duration, {
    name: 'Ground Speed',
    unit: 'km/h',
    dec: 1,
    scaled: (p, lap) => {
      const pace = 1 + 0.02 * Math.sin(lap * 1.7);
      return 10 * pace * (150 + 80 * Math.sin(2 * Math.PI * 3 * p) + 20 * Math.sin(2 * Math.PI * 7 * p));
    },
  });
}

/**
 * A 100 Hz Gyro Yaw Velocity (deg/s) that turns the car once round per 90 s lap, clockwise, hardest where Ground Speed
 * is slowest: dead reckoning from the two draws a closed circuit (the track map read's bench).
 */
function yawVelocity(duration: number): LdChannelInput {
  return lappedChannel(duration, {
    name: 'Gyro Yaw Velocity',
    unit: 'deg/s',
    dec: 2,
    scaled: (p) => -100 * (360 / LAP_SECONDS) * (1 - 0.9 * Math.sin(2 * Math.PI * 3 * p)),
  });
}

/** A 100 Hz Throttle (%): full while Ground Speed rises, off as it falls into the corners. */
function throttle(duration: number): LdChannelInput {
  return lappedChannel(duration, {
    name: 'Throttle',
    unit: '%',
    dec: 1,
    scaled: (p) => 10 * Math.min(100, Math.max(0, 60 + 60 * Math.cos(2 * Math.PI * 3 * p))),
  });
}

/** A 50 Hz Steer (deg): a lock each way through the corners of the lap. */
function steer(duration: number): LdChannelInput {
  return lappedChannel(duration, { name: 'Steer', unit: 'deg', dec: 1, scaled: (p) => 10 * 90 * Math.sin(2 * Math.PI * 3 * p) * Math.sin(2 * Math.PI * 7 * p) }, 50);
}
