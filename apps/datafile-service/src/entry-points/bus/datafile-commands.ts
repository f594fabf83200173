import { EncodedJson, type RequestHandler } from '@pitwall/bus';
import { CHANNELS_MEDIA_TYPE } from '@pitwall/channels';
import { DATAFILE_COMMANDS, SERVICES } from '@pitwall/contracts';
import { dispatchCommands } from '@pitwall/service-host';
import type { DataFileReads } from '../../domain/data-file-reads';

/**
 * Thin bus entry point of the data file access operations. Bodies leave as bytes the gateway forwards unparsed: the
 * binary channel body with its media type, or JSON assembled around the records the pool encoded.
 */
export function datafileCommands(reads: DataFileReads): RequestHandler {
  return dispatchCommands(
    SERVICES.datafile,
    {
      [DATAFILE_COMMANDS.metadata]: async (m, request) => {
        const record = await reads.metadata(m, request.headers.requestId);
        return record instanceof Uint8Array ? asJson(record) : record;
      },
      [DATAFILE_COMMANDS.channel]: async (m, request) => {
        const body = await reads.channels(m, { channels: [m.channel], field: 'channel', scope: m.scope, maxPoints: m.maxPoints, binary: m.binaryType !== undefined }, request.headers.requestId);
        if (m.binaryType) return EncodedJson.binary(body, m.binaryType === 'application/octet-stream' ? m.binaryType : CHANNELS_MEDIA_TYPE);
        // The pool encoded `[record]`: the single-channel answer is the record itself.
        return new EncodedJson(Buffer.from(body.buffer, body.byteOffset + 1, body.byteLength - 2));
      },
      [DATAFILE_COMMANDS.channels]: async (m, request) => {
        const body = await reads.channels(m, { channels: m.channels, field: 'channels', scope: m.scope, maxPoints: m.maxPoints, binary: m.binaryType !== undefined }, request.headers.requestId);
        if (m.binaryType) return EncodedJson.binary(body, m.binaryType === 'application/octet-stream' ? m.binaryType : CHANNELS_MEDIA_TYPE);
        const head = JSON.stringify({ entityId: m.id, entityType: m.type, attachedFileGroupName: m.group, mode: m.mode }).slice(0, -1);
        return new EncodedJson(Buffer.concat([Buffer.from(`${head},"channels":`), body, Buffer.from('}')]));
      },
      [DATAFILE_COMMANDS.distance]: async (m, request) => asJson(await reads.lapDistance(m, m.lapIndex, m.maxPoints, request.headers.requestId)),
      [DATAFILE_COMMANDS.delta]: async (m, request) => {
        const reference = m.reference ? { caller: m.caller, type: m.type, id: m.reference.id, group: m.reference.group } : m;
        return asJson(await reads.lapDelta(m, m.lapIndex, reference, m.referenceLapIndex, m.maxPoints, request.headers.requestId));
      },
      [DATAFILE_COMMANDS.lapStats]: async (m, request) => asJson(await reads.lapStats(m, m, request.headers.requestId)),
      [DATAFILE_COMMANDS.scatter]: async (m, request) => asJson(await reads.scatter(m, m, request.headers.requestId)),
      [DATAFILE_COMMANDS.histogram]: async (m, request) => asJson(await reads.histogram(m, m, request.headers.requestId)),
      [DATAFILE_COMMANDS.trackMap]: async (m, request) => asJson(await reads.trackMap(m, m, request.headers.requestId)),
    },
    { extra: { ping: async () => 'pong' } },
  );
}

/** A JSON body the pool encoded, answered as it is (a view on its buffer, no copy). */
function asJson(body: Uint8Array): EncodedJson {
  return new EncodedJson(Buffer.from(body.buffer, body.byteOffset, body.byteLength));
}
