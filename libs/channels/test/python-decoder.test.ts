import { execFileSync } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { encodeChannels, toReadRecord } from '../src';
import { eventSeries, sampleSeries } from './series-fixtures';

/** The Python decoder exactly as docs/binary-channels.md prints it (the first ```python block). */
function documentedDecoder(): string {
  const doc = readFileSync(path.resolve(__dirname, '../../../docs/binary-channels.md'), 'utf8');
  const block = /```python\n([\s\S]*?)```/.exec(doc);
  if (!block) throw new Error('docs/binary-channels.md has no python block');
  return block[1];
}

/**
 * The machine's python3 with numpy: npm and nx put node's own directory (/usr/bin here) first on PATH, where a
 * python3 without numpy may sit, so each python3 on PATH is tried in order.
 */
function pythonWithNumpy(): string {
  const tried: string[] = [];
  for (const dir of [...new Set((process.env['PATH'] ?? '').split(path.delimiter).filter(Boolean))]) {
    const candidate = path.join(dir, 'python3');
    try {
      accessSync(candidate, constants.X_OK);
    } catch {
      continue;
    }
    tried.push(candidate);
    try {
      execFileSync(candidate, ['-c', 'import numpy'], { stdio: 'ignore', timeout: 60_000 });
      return candidate;
    } catch {
      // no numpy in this one
    }
  }
  throw new Error(`no python3 with numpy on PATH (tried ${tried.join(', ') || 'none'})`);
}

describe('the Python decoder of docs/binary-channels.md', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'pitwall-channels-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('when python3 decodes a body the encoder wrote, then its records equal the JSON records of the same series', () => {
    // Numbers, an array channel and events: a layout-2 body.
    const grid = { name: 'Grid', unit: 'bar', frequency: 10, dimension: 3, startTime: 0, samples: Float64Array.from([1, 2, 3, 4, NaN, 6]), gaps: Uint8Array.from([0, 1]), maxPointsApplied: false as const };
    const series = [...sampleSeries(), grid, ...eventSeries()];
    const bodyPath = path.join(dir, 'body.bin');
    writeFileSync(bodyPath, encodeChannels(series));
    const script = `${documentedDecoder()}\nimport json, sys\nprint(json.dumps(to_records(open(sys.argv[1], 'rb').read())))\n`;
    const scriptPath = path.join(dir, 'decode.py');
    writeFileSync(scriptPath, script);
    const output = execFileSync(pythonWithNumpy(), [scriptPath, bodyPath], { encoding: 'utf8', timeout: 60_000 });
    expect(JSON.parse(output)).toEqual(JSON.parse(JSON.stringify(series.map(toReadRecord))));
  }, 90_000); // starting python3 and importing numpy takes seconds on a loaded machine

  it('when a block of integer codes has gaps, then its physical array holds NaN at them (a gap code is 0), scaled or not', () => {
    // int16 codes without a conversion (a gear), int32 codes with one, an int16 array channel: each with a gap.
    const series = [
      { name: 'Gear', unit: '', frequency: 10, dimension: 1, startTime: 0, samples: Int16Array.from([3, 0, 4]), gaps: Uint8Array.from([0, 1, 0]) },
      ...sampleSeries().filter((s) => s.name === 'Engine RPM'),
      { name: 'Pads', unit: 'mm', frequency: 10, dimension: 2, startTime: 0, samples: Int16Array.from([10, 11, 0, 0, 14, 15]), conversion: { numerator: 1, denominator: 10, offset: 0 }, gaps: Uint8Array.from([0, 1, 0]) },
    ];
    const bodyPath = path.join(dir, 'gaps.bin');
    writeFileSync(bodyPath, encodeChannels(series));
    const script = `${documentedDecoder()}\nimport json, sys\nprint(json.dumps([[None if np.isnan(v) else float(v) for v in c['physical']] for c in decode_channels(open(sys.argv[1], 'rb').read())]))\n`;
    const scriptPath = path.join(dir, 'physical.py');
    writeFileSync(scriptPath, script);
    const output = execFileSync(pythonWithNumpy(), [scriptPath, bodyPath], { encoding: 'utf8', timeout: 60_000 });
    expect(JSON.parse(output)).toEqual(series.map((s) => { const record = toReadRecord(s); return 'samples' in record ? record.samples : undefined; }));
  }, 90_000);
});
