import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { encodeChannels, toChannelRecord } from '../src';
import { sampleSeries } from './series-fixtures';

/** The Python decoder exactly as docs/binary-channels.md prints it (the first ```python block). */
function documentedDecoder(): string {
  const doc = readFileSync(path.resolve(__dirname, '../../../docs/binary-channels.md'), 'utf8');
  const block = /```python\n([\s\S]*?)```/.exec(doc);
  if (!block) throw new Error('docs/binary-channels.md has no python block');
  return block[1];
}

describe('the Python decoder of docs/binary-channels.md', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'pitwall-channels-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('when python3 decodes a body the encoder wrote, then its records equal the JSON records of the same series', () => {
    const series = sampleSeries();
    const bodyPath = path.join(dir, 'body.bin');
    writeFileSync(bodyPath, encodeChannels(series));
    const script = `${documentedDecoder()}\nimport json, sys\nprint(json.dumps(to_records(open(sys.argv[1], 'rb').read())))\n`;
    const scriptPath = path.join(dir, 'decode.py');
    writeFileSync(scriptPath, script);
    const output = execFileSync('python3', [scriptPath, bodyPath], { encoding: 'utf8', timeout: 60_000 });
    expect(JSON.parse(output)).toEqual(JSON.parse(JSON.stringify(series.map(toChannelRecord))));
  });
});
