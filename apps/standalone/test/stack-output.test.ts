// tools/stack.cjs (`npm run start:distributed`) echoes its apps' output, each line named by its app.
// eslint-disable-next-line @nx/enforce-module-boundaries
const { linePrefixer } = require('../../../tools/stack.cjs') as {
  linePrefixer(name: string, write: (text: string) => void): { push(text: string): void; end(): void };
};

/** What a prefixer writes for `chunks` as a child's stream delivers them, and at the stream's end. */
function echoed(chunks: string[]): string {
  let out = '';
  const echo = linePrefixer('gateway', (text) => (out += text));
  for (const chunk of chunks) echo.push(chunk);
  echo.end();
  return out;
}

describe("the supervisor's echo of an app's output", () => {
  test('when a chunk holds several lines, then each line is named by its app', () => {
    expect(echoed(['{"a":1}\n{"b":2}\n{"c":3}\n'])).toBe('[gateway] {"a":1}\n[gateway] {"b":2}\n[gateway] {"c":3}\n');
  });

  test('when a line is split between chunks, then it is written once whole, named once', () => {
    expect(echoed(['{"a":', '1}\n{"b"', ':2}\n'])).toBe('[gateway] {"a":1}\n[gateway] {"b":2}\n');
  });

  test('when the stream ends without a last newline, then its last line is written too', () => {
    expect(echoed(['{"a":1}\nfailed to st', 'art'])).toBe('[gateway] {"a":1}\n[gateway] failed to start\n');
  });

  test('when the stream writes nothing but newlines, then every (empty) line is still named', () => {
    expect(echoed(['\n\n'])).toBe('[gateway] \n[gateway] \n');
  });
});
