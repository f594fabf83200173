/**
 * @pitwall/laps: lap arithmetic shared by the datafile service and the viewer (no Node APIs, so it bundles for the
 * browser). Distance from a speed channel (`integrateDistance`), resampling onto another axis (`interpolateLinear`,
 * `interpolateStep` for discrete channels picked by `isDiscreteChannel`), and the time-delta trace of one lap
 * against a reference over distance (`lapDelta`).
 */
export { distanceFromChannel, integrateDistance, lapDistances, metresPerLengthUnit, metresPerSecond, UnknownLengthUnitError, UnknownSpeedUnitError } from './distance';
export { interpolateLinear, interpolateStep, lowerBound, upperBound } from './interpolate';
export { isDiscreteChannel, type ChannelDescription } from './discrete';
export { DEFAULT_DELTA_POINTS, lapDelta, lineTrace, type LapDelta, type LapTrace } from './delta';
export { distanceSourceKind, pickDistanceSource, type CatalogueChannel, type DistanceSource } from './source';
