/**
 * @pitwall/analysis: the arithmetic of the analysis reads (no Node APIs, no I/O), run by the datafile-service on its
 * worker pool: a channel's report over a lap (`channelStats`), sector times from a lap's distance trace
 * (`sectorTimes`), the best and the theoretical best lap, channels of different rates on one time base
 * (`onFastestTimeBase`), XY scatters that become a density grid when large (`scatter`), histograms, and a lap's track
 * map (`projectLocal` for GPS, `deadReckon` from speed and yaw rate, `closeLoop`, `distanceUniformIndices`, the
 * channels picked by `pickTrackMapSources`).
 */
export { sampleDurations, type TimedSeries } from './series';
export { channelStats, type ChannelStats } from './channel-stats';
export { bestLap, sectorStarts, sectorTimes, SPLIT_LOG_DELAY, splitChanges, splitSectorsOfLaps, theoreticalBest, timeAtDistance, type LapDistanceTrace, type SplitChange, type TheoreticalBest, type TimedLap } from './sectors';
export { onFastestTimeBase, type ResampleInput } from './resample';
export { scatter, type DensityCell, type GridAxis, type Scatter, type ScatterOptions } from './scatter';
export { evenEdges, histogram, type Histogram } from './histogram';
export { closeLoop, closureError, deadReckon, distanceUniformIndices, MIN_TURNING_SPEED, pathDistance, projectLocal, turnRateFromLateral, type DeadReckoningInput, type TrackPath } from './track-map';
export { pickTrackMapSources, TRACK_MAP_CHANNEL_NAMES, TRACK_MAP_SOURCES, TRACK_MAP_UNITS, trackMapUnitFactor, type TrackMapCatalogueChannel, type TrackMapChoice, type TrackMapPick, type TrackMapRefusal, type TrackMapRole, type TrackMapSourceKind, type TrackMapSources } from './track-map-sources';
