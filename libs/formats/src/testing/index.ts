import { resolve } from 'node:path';
/** Test helpers for code that reads telemetry: builders of data files in layouts the fixtures do not cover. */
export { ldRunningPastItsEnd, ldWithChannels, ldWithSharedSamples, lz4Bomb } from './hostile-files';
export { buildMdf3File, type Mdf3ChannelSpec, type Mdf3ConversionSpec, type Mdf3FileSpec, type Mdf3GroupSpec } from './mdf3-builder';
export { buildMdf4File, lz4Frame, signalDataOffsets, type Mdf4ChannelSpec, type Mdf4ConversionSpec, type Mdf4FileSpec, type Mdf4GroupSpec, type Mdf4UnsortedSpec } from './mdf4-builder';

/** The repository's real telemetry files (MoTeC .ld, MDF4, CSV; origin, licence and sha256 in SOURCES.md beside them). */
export const TELEMETRY_FIXTURES_DIR: string = resolve(__dirname, '../../test/fixtures/telemetry');
