import { scopeSampleRange, type ChannelInfo, type RandomAccessDataFile, type ScopeWindow } from '@pitwall/formats';
import { AppError } from '@pitwall/service-kit';

/**
 * Samples a read of `info` decodes: the window's range of a regular `.ld` channel (only those bytes are read), the
 * whole channel otherwise (other formats decode a channel whole, then slice it).
 */
export function samplesToDecode(file: Pick<RandomAccessDataFile, 'format'>, info: Pick<ChannelInfo, 'regular' | 'frequency' | 'sampleCount'> & { dimension?: number }, window: ScopeWindow): number {
  // An array channel decodes `dimension` values a sample.
  if (file.format !== 'motec-ld' || !info.regular) return info.sampleCount * Math.max(1, info.dimension ?? 1);
  const { from, to } = scopeSampleRange(window, { kind: 'implicit', start: 0, frequency: info.frequency }, info.sampleCount);
  return to - from;
}

/**
 * Samples the values of a text or byte channel count: one for each 8 bytes (a float64's), beside one for each event,
 * so that a channel of few but huge values (a text of megabytes) is held to the budget as its bytes say.
 */
export function valueBytesAsSamples(bytes: number): number {
  return Math.ceil(bytes / 8);
}

/**
 * Operations (operators and calls) of a math channel's expression counted as one array of its base's length: its work
 * at each sample, beside the memory of its arrays. 300 sines cost 4 µs a sample: counted as their one array, a read of
 * them at 20 kHz took a pool thread for 30 s (to the read's timeout) while other users' reads waited for it. Here a
 * full budget's work is about 3 s of a thread at most (8 of the costliest operations a sample, `mod` at about 23 ns,
 * `sin` 7 to 13). An expression of fewer operations counts its arrays alone.
 */
export const OPERATIONS_PER_ARRAY = 8;

/**
 * Refuses, before any sample is read, a read needing more decoded samples than READ_SAMPLE_BUDGET: a 413 naming the
 * budget and what the read needed, and how to ask less (a lower rate too when `resampled` made points). A read of text
 * or byte channels is checked again once their values are decoded (their bytes are known only then): `valueBytes`.
 */
export function withinSampleBudget(needed: number, budget: number, errorField: string, resampled?: { rate: number; points: number }, valueBytes = 0): void {
  if (needed <= budget) return;
  // A resampled read's points count too: a lower rate is then a way out (rate=2000 over 29 channels made 5.8 million).
  const lowerRate = resampled?.points ? `, or a lower rate (rate=${resampled.rate} makes ${resampled.points} points of them)` : '';
  // maxPoints thins what is answered, not what is decoded: it is no way out of this refusal, so it is not offered as one.
  const detail = `This read needs ${needed} decoded samples, more than READ_SAMPLE_BUDGET (${budget}) allows one request: ask fewer channels, a lap or a shorter window${lowerRate} (maxPoints thins the answer, not the samples decoded; a math channel's evaluation counts each array it makes, each time function's too, and one more for each ${OPERATIONS_PER_ARRAY} operations of an expression, at its Rate${valueBytes > 0 ? `; a text or byte channel counts a sample for each 8 bytes of its values, ${valueBytes} bytes here` : ''})`;
  throw new AppError(413, detail, { errors: { [errorField]: [`need ${needed} decoded samples, more than the budget of ${budget}`] }, extensions: { sampleBudget: budget, samplesNeeded: needed } });
}
