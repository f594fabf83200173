import { HistogramBody, TrackMapBody } from '../src';

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
