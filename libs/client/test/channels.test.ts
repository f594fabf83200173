import { encodeChannels } from '@pitwall/channels';
import { decodeChannelsBody, eventValue, isEventSeries, physicalSamples, toChannelRecord, toReadRecord, type ChannelSeries } from '../src';

describe('decodeChannelsBody', () => {
  it('when a binary body is decoded, then the samples view the response buffer and convert raw values', () => {
    const body = encodeChannels([
      { name: 'Speed', unit: 'km/h', frequency: 20, dimension: 1, startTime: 0, samples: Int16Array.from([2446, 10]), conversion: { numerator: 1, denominator: 10, offset: 0 } },
      { name: 'Brake', unit: 'bar', frequency: 50, dimension: 1, startTime: 1, samples: Float64Array.from([1.5, NaN]), gaps: Uint8Array.from([0, 1]) },
    ]);
    const response = body.buffer.slice(0) as ArrayBuffer;
    const [speed, brake] = decodeChannelsBody(response) as ChannelSeries[]; // numbers only
    expect(speed.samples.buffer).toBe(response);
    expect(Array.from(physicalSamples(speed))).toEqual([244.6, 1]);
    expect(toChannelRecord(brake)).toEqual({ name: 'Brake', unit: 'bar', frequency: 50, dimension: 1, samples: [1.5, null] });
  });

  it('when a body holds a text channel (layout 2), then it decodes to events beside the numbers', () => {
    const text = new TextEncoder().encode('PITBOX ✓');
    const body = encodeChannels([
      { name: 'Speed', unit: 'km/h', frequency: 20, dimension: 1, startTime: 0, samples: Float64Array.from([1, 2]) },
      { kind: 'text', name: 'Message', unit: '', frequency: 1, startTime: 3, times: Float64Array.from([3, 4]), offsets: Uint32Array.from([0, 3, text.length]), bytes: text },
    ]);
    const [speed, message] = decodeChannelsBody(body);
    expect(isEventSeries(speed)).toBe(false);
    if (!isEventSeries(message)) throw new Error('expected events');
    expect(eventValue(message, 1)).toBe('BOX ✓');
    expect(toReadRecord(message)).toEqual({ name: 'Message', unit: '', kind: 'text', frequency: 1, times: [3, 4], values: ['PIT', 'BOX ✓'] });
  });
});
