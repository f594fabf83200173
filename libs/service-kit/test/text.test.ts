import { attachmentDisposition, shortened, wellFormed } from '../src';

describe('text helpers', () => {
  test('when a pair is cut in two, then wellFormed puts U+FFFD for the half and keeps whole pairs', () => {
    expect(wellFormed('a\uD83D')).toBe('a\uFFFD');
    expect(wellFormed('\uDE00b')).toBe('\uFFFDb');
    expect(wellFormed('😀')).toBe('😀');
  });

  test('when a text is longer than its echo may be, then shortened keeps its first characters and adds …, and never leaves half a pair', () => {
    expect(shortened('abcdef', 6)).toBe('abcdef');
    expect(shortened('abcdefg', 6)).toBe('abcdef…');
    expect(shortened('x'.repeat(1_000_000), 200)).toHaveLength(201);
    // '😀' is two code units: a cut between them leaves U+FFFD, which encodes as UTF-8.
    expect(shortened('ab😀cd', 3)).toBe('ab\uFFFD…');
    expect(() => encodeURIComponent(shortened('ab😀cd', 3))).not.toThrow();
  });

  test('when a file name has quotes, backslashes, non-ASCII and a cut pair, then attachmentDisposition gives an ASCII filename and the exact name percent-encoded', () => {
    expect(attachmentDisposition('a "b"\\c ü.ld')).toBe(`attachment; filename="a _b__c _.ld"; filename*=UTF-8''a%20%22b%22%5Cc%20%C3%BC.ld`);
    expect(attachmentDisposition("it's (1)*.csv")).toBe(`attachment; filename="it's (1)*.csv"; filename*=UTF-8''it%27s%20%281%29%2A.csv`);
    expect(attachmentDisposition('x\uD83D')).toBe(`attachment; filename="x_"; filename*=UTF-8''x%EF%BF%BD`);
    expect(attachmentDisposition('n'.repeat(600))).toBe(`attachment; filename="${'n'.repeat(500)}"; filename*=UTF-8''${'n'.repeat(500)}`);
  });
});
