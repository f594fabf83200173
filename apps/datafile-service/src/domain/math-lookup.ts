import type { ChannelInfo, ScopeWindow } from '@pitwall/formats';
import type { OpenDataset } from './datasets';
import { samplesToDecode } from './read-budget';
import type { MathChannelInfo, MathReads } from './read-math-channels';

// How a read that may name the account's math channels looks its names up and counts what it decodes: the channel
// reads and the analysis reads alike (docs/math-channels.md).

/** Whether a catalogue entry of a read is one of its math channels. */
export const isMathChannel = (info: ChannelInfo): info is MathChannelInfo => 'math' in info;

/** What a read's names are looked up in: the file's channels, then the read's math channels (a logged one wins). */
export function catalogueWith(file: OpenDataset['file'], math: MathReads | undefined): readonly ChannelInfo[] {
  return math ? [...file.channels, ...math.infos.values()] : file.channels;
}

/** Samples reading one channel in `window` decodes: its own, or for a math channel every input's (READ_SAMPLE_BUDGET). */
export function decodesOf(file: OpenDataset['file'], info: ChannelInfo, window: ScopeWindow, math: MathReads | undefined): number {
  return math && isMathChannel(info) ? math.decodes(info, window) : samplesToDecode(file, info, window);
}
