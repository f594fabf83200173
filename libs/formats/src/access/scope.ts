import { InvalidSliceError } from '../errors';
import type { DataFile, TimeBase } from '../model';
import { sampleIndexRange } from '../slice';

/** What a channel read covers: the whole file, one lap, or the window [start, start + duration) (s from file start). */
export type ReadScope = { mode: 'file' } | { mode: 'lap'; lapIndex: number } | { mode: 'window'; start: number; duration: number };

/** A resolved scope: the whole file, or the half-open window [start, end) in seconds on the file's time axis. */
export type ScopeWindow = { whole: true } | { whole: false; start: number; end: number };

/**
 * The window of a scope; refuses (InvalidSliceError, a 400) a lap index outside 0..lapCount-1 and a window that is
 * not finite or has a negative duration. A window's start counts from the file's start time, as the API says.
 */
export function resolveScope(scope: ReadScope, file: Pick<DataFile, 'startTime' | 'laps'>): ScopeWindow {
  switch (scope.mode) {
    case 'file':
      return { whole: true };
    case 'lap': {
      const { lapIndex } = scope;
      if (!Number.isInteger(lapIndex) || lapIndex < 0 || lapIndex >= file.laps.length) {
        throw new InvalidSliceError(file.laps.length === 0 ? `lap index ${lapIndex}: the file has no laps` : `lap index ${lapIndex} is outside 0..${file.laps.length - 1}`);
      }
      const lap = file.laps[lapIndex];
      return { whole: false, start: lap.startTime, end: lap.endTime };
    }
    case 'window': {
      const { start, duration } = scope;
      if (!Number.isFinite(start) || !Number.isFinite(duration) || duration < 0) {
        throw new InvalidSliceError(`window start ${start}, duration ${duration} is not a finite, non-negative window`);
      }
      return { whole: false, start: file.startTime + start, end: file.startTime + start + duration };
    }
  }
}

/**
 * Sample indices [from, to) of a channel inside a window. For a regular channel only its time base and count are
 * needed, so a lazy reader knows which bytes to read before reading any.
 */
export function scopeSampleRange(window: ScopeWindow, time: TimeBase, sampleCount: number): { from: number; to: number } {
  if (window.whole) return { from: 0, to: sampleCount };
  const { from, to } = sampleIndexRange(time, sampleCount, window.start, window.end);
  return { from, to };
}
