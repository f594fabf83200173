import { type LdChannelInput, writeLdFile } from './ld-writer';

export interface DemoLdOptions {
  /** Flying laps between the out-lap and the in-lap; default 3. */
  flyingLaps?: number;
  outingTime?: string;
  /**
   * The full logger's channel set: besides the 9 driver and engine channels, suspension, wheel speeds, tyre
   * temperatures, accelerations and the car's vitals (25 channels in all, about 0.5 MB for 3 flying laps).
   */
  fullChannelSet?: boolean;
}

/**
 * A small but realistic MoTeC `.ld` outing (out-lap, flying laps, in-lap; about 100 kB for 3 flying laps) whose
 * laps are recoverable from its `Lap Number` and `Beacon` channels. Deterministic: same options, same bytes.
 */
export function createDemoLdFile(options: DemoLdOptions = {}): Uint8Array {
  const flying = options.flyingLaps ?? 3;
  const lapLengths = [78, ...Array.from({ length: flying }, (_, i) => 62 + 0.4 * Math.sin(i * 1.7)), 70];
  const lapStarts = lapLengths.reduce<number[]>((starts, _len, i) => [...starts, i === 0 ? 0 : starts[i - 1] + lapLengths[i - 1]], []);
  const duration = Math.ceil(lapStarts[lapStarts.length - 1] + lapLengths[lapLengths.length - 1]);

  // Where in its lap (0..1) the car is at time t; the pit lane laps are slower over the same track.
  const lapAt = (t: number) => {
    let lap = 0;
    while (lap + 1 < lapStarts.length && t >= lapStarts[lap + 1]) lap++;
    return { lap, phase: Math.min(1, (t - lapStarts[lap]) / lapLengths[lap]) };
  };
  const speed = (t: number) => {
    const { lap, phase } = lapAt(t);
    const pace = lap === 0 || lap === lapLengths.length - 1 ? 0.7 : 1;
    return pace * (150 + 70 * Math.sin(2 * Math.PI * 3 * phase) + 20 * Math.sin(2 * Math.PI * 7 * phase + 1));
  };
  const gear = (t: number) => Math.min(6, Math.max(1, Math.ceil(speed(t) / 42)));
  const channel = (name: string, unit: string, frequency: number, value: (t: number) => number, scaling?: LdChannelInput['scaling']): LdChannelInput => ({
    name,
    unit,
    frequency,
    scaling,
    sampleCount: duration * frequency,
    fill: (first, out) => {
      for (let i = 0; i < out.length; i++) out[i] = value((first + i) / frequency);
    },
  });

  const corner = ['FL', 'FR', 'RL', 'RR'];
  const lateralG = (t: number) => (speed(t) / 220) * 2.2 * Math.sin(2 * Math.PI * 5 * lapAt(t).phase);
  const longitudinalG = (t: number) => 1.2 * Math.cos(2 * Math.PI * 3 * lapAt(t).phase);
  const full: LdChannelInput[] = options.fullChannelSet
    ? [
        ...corner.map((c, k) => channel(`Susp Pos ${c}`, 'mm', 50, (t) => 25 + (k < 2 ? 6 : 4) * longitudinalG(t) * (k < 2 ? -1 : 1) + 3 * lateralG(t) * (k % 2 ? -1 : 1), { dec: 2 })),
        ...corner.map((c, k) => channel(`Wheel Speed ${c}`, 'km/h', 50, (t) => speed(t) * (1 + 0.01 * (k % 2 ? -1 : 1) * lateralG(t)), { dec: 1 })),
        ...corner.map((c, k) => channel(`Tyre Temp ${c}`, 'C', 10, (t) => 60 + 30 * (1 - Math.exp(-t / 90)) + (k % 2 ? -2 : 2) * lateralG(t), { dec: 1 })),
        channel('G Force Lat', 'G', 50, lateralG, { dec: 3 }),
        channel('G Force Long', 'G', 50, longitudinalG, { dec: 3 }),
        channel('Oil Temp', 'C', 1, (t) => 95 + 10 * (1 - Math.exp(-t / 150)), { dec: 1 }),
        channel('Oil Pressure', 'bar', 10, (t) => 2 + (speed(t) / gear(t)) * 0.07, { dec: 2 }),
        channel('Fuel Level', 'l', 1, (t) => 60 - t * 0.012, { dec: 2 }),
        channel('Battery Volts', 'V', 1, (t) => 13.8 - 0.2 * Math.sin(t / 30), { dec: 2 }),
      ]
    : [];

  return writeLdFile({
    properties: {
      eventName: 'Pitwall demo day',
      sessionName: 'Practice 1',
      driverName: 'Demo Driver',
      venueName: 'Demo Circuit',
      carId: 'D01',
      comment: 'generated demo outing',
      outingTime: options.outingTime ?? '2026-03-14T10:30:00',
    },
    deviceType: 'DEMO',
    channels: [
      channel('Engine RPM', 'rpm', 100, (t) => 2000 + (speed(t) / gear(t)) * 190, { mul: 6, scale: 10, dec: -1 }),
      channel('Ground Speed', 'km/h', 50, speed, { dec: 1 }),
      channel('Throttle Pos', '%', 50, (t) => Math.min(100, Math.max(0, 50 + 60 * Math.cos(2 * Math.PI * 3 * lapAt(t).phase))), { dec: 1 }),
      channel('Brake Pressure', 'bar', 50, (t) => Math.max(0, -40 * Math.cos(2 * Math.PI * 3 * lapAt(t).phase) - 10), { dec: 1 }),
      channel('Steered Angle', 'deg', 50, (t) => 30 * Math.sin(2 * Math.PI * 5 * lapAt(t).phase), { dec: 1 }),
      channel('Gear', '', 10, gear),
      channel('Coolant Temp', 'C', 1, (t) => 82 + 6 * (1 - Math.exp(-t / 120)), { dec: 1 }),
      channel('Lap Number', '', 10, (t) => lapAt(t).lap),
      channel('Beacon', '', 10, (t) => (lapAt(t).lap > 0 && t - lapStarts[lapAt(t).lap] < 0.1 ? 1 : 0)),
      ...full,
    ],
  });
}
