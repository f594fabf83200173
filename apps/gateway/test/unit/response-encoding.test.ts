import { chooseCoding, compressibleType, OFFERED_CODINGS } from '../../src/entry-points/http/response-encoding';

describe('the content coding an Accept-Encoding header asks for (RFC 9110 §12.5.3)', () => {
  test('when Node has zstd, then the gateway offers zstd, gzip and br, cheapest to encode first', () => {
    expect(OFFERED_CODINGS).toEqual(['zstd', 'gzip', 'br']);
  });

  test.each([
    ['no header (curl without --compressed)', undefined, 'identity'],
    ['an empty header', '', 'identity'],
    ['identity', 'identity', 'identity'],
    ["Python requests' default", 'gzip, deflate', 'gzip'],
    ["fetch's default over http", 'gzip, deflate', 'gzip'],
    ["fetch's default over https", 'br, gzip, deflate, zstd', 'zstd'],
    ['a browser', 'gzip, deflate, br, zstd', 'zstd'],
    ['requests with brotli installed', 'gzip, deflate, br', 'gzip'],
    ['br alone', 'br', 'br'],
    ['the higher q over the cheaper coding', 'zstd;q=0.5, br;q=0.8', 'br'],
    ['a tie of q: the cheaper coding', 'br;q=0.5, gzip;q=0.5', 'gzip'],
    ['a refused coding (q=0)', 'zstd;q=0, gzip', 'gzip'],
    ['*', '*', 'zstd'],
    ['* beside a coding it outranks', 'gzip;q=0.2, *;q=0.5', 'zstd'],
    ['* refused, one coding named', 'gzip, *;q=0', 'gzip'],
    ['x-gzip (gzip, §8.4.1.3)', 'x-gzip', 'gzip'],
    ['codings in capitals and spaces', ' GZIP ; Q=0.7 , Identity;q=0.1', 'gzip'],
    ['identity preferred by its q', 'gzip;q=0.5, identity', 'identity'],
    ['identity and a coding of the same q: the coding', 'identity;q=0.5, gzip;q=0.5', 'gzip'],
    ['only deflate (not offered)', 'deflate', 'identity'],
    ['only an unknown coding', 'compress', 'identity'],
    ['every offered coding refused', 'zstd;q=0, gzip;q=0, br;q=0', 'identity'],
    ['a q that is not a number (the element skipped)', 'gzip;q=high, br', 'br'],
    ['a q out of range (clamped)', 'br;q=7, gzip;q=0.9', 'br'],
    ['a coding listed twice: its higher q', 'gzip;q=0, gzip;q=0.5, br;q=0.4', 'gzip'],
    ['empty elements', ',, gzip ,', 'gzip'],
  ])('when the header is %s (%s), then %s', (_what, header, expected) => {
    expect(chooseCoding(header)).toBe(expected);
  });

  test.each([
    ['identity refused, deflate only', 'deflate, identity;q=0'],
    ['everything refused', '*;q=0'],
    ['identity refused and every offered coding too', 'identity;q=0, gzip;q=0, zstd;q=0, br;q=0'],
  ])('when %s, then nothing acceptable remains (undefined: the caller sends identity anyway)', (_what, header) => {
    expect(chooseCoding(header)).toBeUndefined();
  });

  test('when * is refused but identity is named, then identity', () => {
    expect(chooseCoding('*;q=0, identity')).toBe('identity');
  });

  test('when identity is refused and a coding is accepted, then that coding', () => {
    expect(chooseCoding('gzip, identity;q=0')).toBe('gzip');
  });

  test('when Node had no zstd, then a client asking zstd first gets its next choice', () => {
    expect(chooseCoding('zstd, gzip;q=0.5', ['gzip', 'br'])).toBe('gzip');
  });
});

describe('the media types the gateway compresses', () => {
  test.each(['application/json; charset=utf-8', 'application/problem+json', 'text/html; charset=utf-8', 'text/javascript; charset=utf-8', 'application/x-service-channels', 'application/octet-stream', 'application/vnd.apache.arrow.stream', 'application/vnd.apache.arrow.file'])('when the answer is %s, then it may be compressed', (type) => {
    expect(compressibleType(type)).toBe(true);
  });
  test.each(['image/png', 'application/zip', 'application/vnd.apache.arrow.json', undefined])('when the answer is %s, then it is sent as it is', (type) => {
    expect(compressibleType(type)).toBe(false);
  });
});
