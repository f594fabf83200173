import { ChannelsDecodeError, decodeChannels, encodeChannels, eventValue, isEventSeries, toEventRecord, toReadRecord, type EventSeries } from '../src';
import { eventSeries, sampleSeries } from './series-fixtures';

describe('text and byte channels (events) in the channel records', () => {
  it('when an events series becomes its JSON record, then text is text, bytes are base64 and gaps are null', () => {
    const [text, bytes] = eventSeries();
    expect(toEventRecord(text)).toEqual({ name: 'Driver Message', unit: '', kind: 'text', frequency: 10, times: [1, 1.5, 2.25], values: ['BOX BOX', null, 'Größe ✓'] });
    expect(toEventRecord(bytes)).toEqual({ name: 'CAN Frame', unit: '', kind: 'bytes', frequency: 100, times: [0, 0.01], values: ['AAH/', 'AQIDBA=='], maxPointsApplied: false });
    expect(toReadRecord(text)).toEqual(toEventRecord(text));
  });

  it('when a body holds events, then it is layout version 2 and decodes to the same records, numbers included', () => {
    const series = [...sampleSeries(), ...eventSeries()];
    const body = encodeChannels(series);
    expect(new DataView(body.buffer).getUint16(4, true)).toBe(2);
    const decoded = decodeChannels(body);
    expect(decoded.map(toReadRecord)).toEqual(series.map(toReadRecord));
    const text = decoded.find(isEventSeries) as EventSeries;
    expect(text.offsets.byteOffset % 8).toBe(0);
    expect(text.times.byteOffset % 8).toBe(0);
    expect(text.bytes.buffer).toBe(body.buffer);
    expect(eventValue(text, 2)).toBe('Größe ✓');
    expect(body.byteLength % 8).toBe(0);
  });

  it('when a body holds numbers only, then it stays layout version 1 (what version-1 decoders read)', () => {
    expect(new DataView(encodeChannels(sampleSeries()).buffer).getUint16(4, true)).toBe(1);
  });

  it('when a decoder that knows only version 1 meets a version-2 body, then it refuses it by its version (the documented rule)', () => {
    const body = encodeChannels(eventSeries());
    // The check every version-1 decoder makes (docs/binary-channels.md, the Python decoder of layout 1 included).
    const version = new DataView(body.buffer).getUint16(4, true);
    expect(version).not.toBe(1);
    const future = body.slice();
    new DataView(future.buffer).setUint16(4, 3, true);
    expect(() => decodeChannels(future)).toThrow(new ChannelsDecodeError('layout version 3 is not supported (this decoder reads 1 and 2)', 4));
  });

  it('when an event series is a slice of a larger one, then its offsets are rebased in the body', () => {
    const [text] = eventSeries();
    const sliced: EventSeries = { ...text, times: text.times.subarray(2), offsets: text.offsets.subarray(2), gaps: undefined };
    const [decoded] = decodeChannels(encodeChannels([sliced]));
    expect(toReadRecord(decoded)).toMatchObject({ values: ['Größe ✓'], times: [2.25] });
  });

  it('when an event block is damaged, then decoding fails with ChannelsDecodeError', () => {
    const body = encodeChannels(eventSeries().slice(0, 1));
    const view = new DataView(body.buffer);
    const offsetsAt = 16 + 56 + 16; // name "Driver Message" (14 bytes) padded to 16
    const backwards = body.slice();
    new DataView(backwards.buffer).setUint32(offsetsAt + 4, 1000, true);
    expect(() => decodeChannels(backwards)).toThrow(ChannelsDecodeError);
    for (const cut of [20, 80, body.byteLength - 8]) expect(() => decodeChannels(body.slice(0, cut))).toThrow(ChannelsDecodeError);
    expect(view.getUint8(16 + 4)).toBe(5);
  });
});
