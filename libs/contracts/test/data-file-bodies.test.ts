import type { z } from 'zod';
import { ChannelsBody, fieldErrors, HistogramBody, safeParseReporting, ScatterBody, TrackMapBody } from '../src';

describe('a lap index in a data file body', () => {
  test.each([
    [1e20, ['must be at most 999999999']],
    [1e9, ['must be at most 999999999']],
    [-1, ['is not a non-negative integer']],
    [1.5, ['is not a non-negative integer']],
  ])('when it is %s, then one refusal says why', (lapIndex, messages) => {
    for (const body of [{ lapIndex }, { channel: 'Throttle', lapIndex }]) {
      const schema = 'channel' in body ? HistogramBody : TrackMapBody;
      const result = schema.safeParse(body);
      expect(result.error?.issues.filter((i) => i.path[0] === 'lapIndex').map((i) => i.message)).toEqual(messages);
    }
  });
});

describe('the errors of a refused body, field by field', () => {
  test.each([
    ['a channel name given as an empty array', ScatterBody, { x: 'Speed', y: [] }, { y: ['must be a string, not an array'] }],
    ['a lap index of 1e309 (Infinity once parsed) in a batch of one lap', ChannelsBody, JSON.parse('{"channels":["a"],"mode":1,"lapIndex":1e309}'), { lapIndex: ['is not a non-negative integer'] }],
    ['a list of channels given as a string, and a lap index of another type', ChannelsBody, { channels: 'Speed', mode: 1, lapIndex: '2' }, { channels: ['must be an array, not a string'], lapIndex: ['is not a non-negative integer'] }],
  ])('when it holds %s, then each field is named once, with one sentence each', (_what, schema, body, errors) => {
    const result = safeParseReporting(schema as z.ZodType, body);
    expect(result.success).toBe(false);
    expect(fieldErrors(result.error as z.ZodError)).toEqual(errors);
  });
});
