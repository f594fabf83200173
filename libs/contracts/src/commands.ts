import { z } from 'zod';
import { AttachmentsDataset, DATAFILE_COMMANDS, DatasetConstants, DatasetSectors, DataFileChannelRequest, DataFileChannelsRequest, DataFileDeltaRequest, DataFileDistanceRequest, DataFileHistogramRequest, DataFileLapStatsRequest, DataFileMetadataRequest, DataFileScatterRequest, DataFileTrackMapRequest } from './data-files';
import { ATTACHMENT_COMMANDS, AttachmentDelete, AttachmentDownload, AttachmentList, AttachmentPrepare, AttachmentUpdate, AttachmentUploaded, AttachmentUploadTarget } from './attachments';
import { ENTITY_COMMANDS, EntityCreate, EntityDelete, EntityGet, EntityGetMany, EntityList, EntitySearch, EntityUpdate, EntityUpdateMany, SERVICES } from './messages';
import { ENTITY_TIMING_BATCH_COMMAND, ENTITY_TIMING_COMMAND, TIMING_COMMANDS, TimingBatchCommand, TimingCommand } from './timing';
import { SIMULATION_COMMANDS, SimulationCallbackDelete, SimulationCallbackList, SimulationCallbackRegister, SimulationConnectionPut, SimulationReprocess, SimulationStatusQuery, SimulationTrigger } from './simulation';

/**
 * A bus command an operation becomes: the service that answers it, the message the gateway sends (typed by the
 * same body schema the gateway validated with), and the envelope a consumer checks. The envelope is the cheap
 * check: other producers can publish, so the shape is verified, but a body the gateway already proved is only
 * checked to be an object, not validated a second time.
 */
export interface CommandDef<M extends z.ZodType = z.ZodType, S extends string = string, N extends string = string> {
  service: S;
  name: N;
  message: M;
  envelope: z.ZodType;
}

/** What a body the gateway validated looks like to a consumer: an object, not re-validated. */
export const ProvedBody = z.record(z.string(), z.unknown());

const command = <S extends string, N extends string, M extends z.ZodType>(service: S, name: N, message: M, envelope: z.ZodType = message): CommandDef<M, S, N> => ({ service, name, message, envelope });

export const COMMANDS = {
  [ENTITY_COMMANDS.get]: command(SERVICES.entity, ENTITY_COMMANDS.get, EntityGet),
  [ENTITY_COMMANDS.list]: command(SERVICES.entity, ENTITY_COMMANDS.list, EntityList),
  [ENTITY_COMMANDS.create]: command(SERVICES.entity, ENTITY_COMMANDS.create, EntityCreate, EntityCreate.extend({ body: ProvedBody })),
  [ENTITY_COMMANDS.update]: command(SERVICES.entity, ENTITY_COMMANDS.update, EntityUpdate, EntityUpdate.extend({ body: ProvedBody })),
  [ENTITY_COMMANDS.delete]: command(SERVICES.entity, ENTITY_COMMANDS.delete, EntityDelete),
  [ENTITY_COMMANDS.search]: command(SERVICES.entity, ENTITY_COMMANDS.search, EntitySearch, EntitySearch.extend({ body: ProvedBody })),
  /** Sent by other services (not routed by the operation table): checked whole, as no gateway proved them. */
  [ENTITY_COMMANDS.getMany]: command(SERVICES.entity, ENTITY_COMMANDS.getMany, EntityGetMany),
  [ENTITY_COMMANDS.updateMany]: command(SERVICES.entity, ENTITY_COMMANDS.updateMany, EntityUpdateMany),
  // The timing-service checks the whole message: it reads the ids of the body to order updates per car.
  [TIMING_COMMANDS.update]: command(SERVICES.timing, TIMING_COMMANDS.update, TimingCommand),
  [ENTITY_TIMING_COMMAND]: command(SERVICES.entity, ENTITY_TIMING_COMMAND, TimingCommand),
  [ENTITY_TIMING_BATCH_COMMAND]: command(SERVICES.entity, ENTITY_TIMING_BATCH_COMMAND, TimingBatchCommand),
  /** Sent by the datafile-service (not routed by the operation table): the files of a dataset the caller may read. */
  [ATTACHMENT_COMMANDS.dataset]: command(SERVICES.entity, ATTACHMENT_COMMANDS.dataset, AttachmentsDataset),
  /** Sent by the datafile-service: the sector definitions of a dataset's track, for lap statistics. */
  [ATTACHMENT_COMMANDS.datasetSectors]: command(SERVICES.entity, ATTACHMENT_COMMANDS.datasetSectors, DatasetSectors),
  /** Sent by the datafile-service: the numeric parameters a math channel's param() is looked up in, for a dataset. */
  [ATTACHMENT_COMMANDS.datasetConstants]: command(SERVICES.entity, ATTACHMENT_COMMANDS.datasetConstants, DatasetConstants),
  [DATAFILE_COMMANDS.metadata]: command(SERVICES.datafile, DATAFILE_COMMANDS.metadata, DataFileMetadataRequest),
  [DATAFILE_COMMANDS.channel]: command(SERVICES.datafile, DATAFILE_COMMANDS.channel, DataFileChannelRequest),
  [DATAFILE_COMMANDS.channels]: command(SERVICES.datafile, DATAFILE_COMMANDS.channels, DataFileChannelsRequest),
  [DATAFILE_COMMANDS.distance]: command(SERVICES.datafile, DATAFILE_COMMANDS.distance, DataFileDistanceRequest),
  [DATAFILE_COMMANDS.delta]: command(SERVICES.datafile, DATAFILE_COMMANDS.delta, DataFileDeltaRequest),
  [DATAFILE_COMMANDS.lapStats]: command(SERVICES.datafile, DATAFILE_COMMANDS.lapStats, DataFileLapStatsRequest),
  [DATAFILE_COMMANDS.scatter]: command(SERVICES.datafile, DATAFILE_COMMANDS.scatter, DataFileScatterRequest),
  [DATAFILE_COMMANDS.histogram]: command(SERVICES.datafile, DATAFILE_COMMANDS.histogram, DataFileHistogramRequest),
  [DATAFILE_COMMANDS.trackMap]: command(SERVICES.datafile, DATAFILE_COMMANDS.trackMap, DataFileTrackMapRequest),
  [ATTACHMENT_COMMANDS.prepare]: command(SERVICES.entity, ATTACHMENT_COMMANDS.prepare, AttachmentPrepare),
  [ATTACHMENT_COMMANDS.list]: command(SERVICES.entity, ATTACHMENT_COMMANDS.list, AttachmentList),
  [ATTACHMENT_COMMANDS.update]: command(SERVICES.entity, ATTACHMENT_COMMANDS.update, AttachmentUpdate, AttachmentUpdate.extend({ body: ProvedBody })),
  [ATTACHMENT_COMMANDS.delete]: command(SERVICES.entity, ATTACHMENT_COMMANDS.delete, AttachmentDelete),
  [ATTACHMENT_COMMANDS.uploadTarget]: command(SERVICES.entity, ATTACHMENT_COMMANDS.uploadTarget, AttachmentUploadTarget),
  [ATTACHMENT_COMMANDS.uploaded]: command(SERVICES.entity, ATTACHMENT_COMMANDS.uploaded, AttachmentUploaded),
  [ATTACHMENT_COMMANDS.download]: command(SERVICES.entity, ATTACHMENT_COMMANDS.download, AttachmentDownload),
  [SIMULATION_COMMANDS.trigger]: command(SERVICES.simulation, SIMULATION_COMMANDS.trigger, SimulationTrigger),
  [SIMULATION_COMMANDS.reprocess]: command(SERVICES.simulation, SIMULATION_COMMANDS.reprocess, SimulationReprocess),
  [SIMULATION_COMMANDS.status]: command(SERVICES.simulation, SIMULATION_COMMANDS.status, SimulationStatusQuery),
  [SIMULATION_COMMANDS.putConnection]: command(SERVICES.simulation, SIMULATION_COMMANDS.putConnection, SimulationConnectionPut),
  [SIMULATION_COMMANDS.registerCallback]: command(SERVICES.simulation, SIMULATION_COMMANDS.registerCallback, SimulationCallbackRegister),
  [SIMULATION_COMMANDS.listCallbacks]: command(SERVICES.simulation, SIMULATION_COMMANDS.listCallbacks, SimulationCallbackList),
  [SIMULATION_COMMANDS.deleteCallback]: command(SERVICES.simulation, SIMULATION_COMMANDS.deleteCallback, SimulationCallbackDelete),
} as const;

export type CommandName = keyof typeof COMMANDS;
/** The message of a command, as its handler receives it. */
export type CommandMessage<N extends CommandName> = z.infer<(typeof COMMANDS)[N]['message']>;
/** The message without the caller the gateway adds: what an operation's `toMessage` builds from the request. */
export type CommandInput<N extends CommandName> = Omit<CommandMessage<N>, 'caller'>;
/** The commands one service answers, by name. */
export type CommandsOf<S extends string> = { [N in CommandName]: (typeof COMMANDS)[N]['service'] extends S ? N : never }[CommandName];
