/** Test helpers for code that reads telemetry: builders of data files in layouts the fixtures do not cover. */
export { buildMdf4File, type Mdf4ChannelSpec, type Mdf4ConversionSpec, type Mdf4FileSpec, type Mdf4GroupSpec } from './mdf4-builder';
