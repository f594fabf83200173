import { toNanosecond } from '@pitwall/channels';
import type { DataFile } from '../model';

/** Echo of the request that names the data file. */
export interface DataFileEcho {
  entityId: string;
  entityType: string;
  attachedFileGroupName: string;
}

/** The metadata record of the data file access endpoints, exactly these fields. */
export interface DataFileMetadataRecord extends DataFileEcho {
  fileProperties: {
    eventName: string | null;
    sessionName: string | null;
    runNumber: number | null;
    driverName: string | null;
    venueName: string | null;
    carId: string | null;
    outingTime: string | null;
  };
  startTime: number;
  fileTimeLength: number;
  lapCount: number;
  lapElapsedTimes: number[];
  /** `kind` only for text and byte channels, `shape` only for arrays: the records of numeric files are as they were. */
  channels: { name: string; unit: string; frequency: number; sampleCount: number; dimension: number; dataType: string; kind?: 'text' | 'bytes'; shape?: number[] }[];
}

/** The metadata record of an opened file (its catalogue: no sample is decoded for it beyond what opening read). */
export function buildMetadataRecord(echo: DataFileEcho, file: Pick<DataFile, 'properties' | 'startTime' | 'duration' | 'laps' | 'channels'>): DataFileMetadataRecord {
  const p = file.properties;
  return {
    entityId: echo.entityId,
    entityType: echo.entityType,
    attachedFileGroupName: echo.attachedFileGroupName,
    fileProperties: {
      eventName: p.eventName,
      sessionName: p.sessionName,
      runNumber: p.runNumber,
      driverName: p.driverName,
      venueName: p.venueName,
      carId: p.carId,
      outingTime: p.outingTime,
    },
    startTime: file.startTime,
    fileTimeLength: toNanosecond(file.duration),
    lapCount: file.laps.length,
    lapElapsedTimes: file.laps.map((lap) => toNanosecond(lap.endTime - lap.startTime)),
    channels: metadataChannels(file.channels),
  };
}

/** The `channels` of the metadata record, exactly these fields of each catalogue entry (kind and shape where set). */
export function metadataChannels(channels: DataFile['channels']): DataFileMetadataRecord['channels'] {
  return channels.map((c) => ({
    name: c.name,
    unit: c.unit,
    frequency: c.frequency,
    sampleCount: c.sampleCount,
    dimension: c.dimension,
    dataType: c.dataType,
    ...(c.kind ? { kind: c.kind } : {}),
    ...(c.shape ? { shape: [...c.shape] } : {}),
  }));
}
