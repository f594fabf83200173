import { encodeChannels } from '@pitwall/channels';
import { decodeChannelsBody, physicalSamples, toChannelRecord } from '../src';

describe('decodeChannelsBody', () => {
  it('when a binary body is decoded, then the samples view the response buffer and convert raw values', () => {
    const body = encodeChannels([
      { name: 'Speed', unit: 'km/h', frequency: 20, dimension: 1, startTime: 0, samples: Int16Array.from([2446, 10]), conversion: { numerator: 1, denominator: 10, offset: 0 } },
      { name: 'Brake', unit: 'bar', frequency: 50, dimension: 1, startTime: 1, samples: Float64Array.from([1.5, NaN]), gaps: Uint8Array.from([0, 1]) },
    ]);
    const response = body.buffer.slice(0) as ArrayBuffer;
    const [speed, brake] = decodeChannelsBody(response);
    expect(speed.samples.buffer).toBe(response);
    expect(Array.from(physicalSamples(speed))).toEqual([244.6, 1]);
    expect(toChannelRecord(brake)).toEqual({ name: 'Brake', unit: 'bar', frequency: 50, dimension: 1, samples: [1.5, null] });
  });
});
