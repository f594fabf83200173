import { bytesAnswer, framedAnswer, JSON_MEDIA_TYPE, REQUEST_HELD_ANSWER, type BulkAnswer, type BusRequest, type ClaimDesk, type RequestHandler } from '@pitwall/bus';
import { ARROW_FILE_MEDIA_TYPE, ARROW_STREAM_MEDIA_TYPE, DATAFILE_COMMANDS, SERVICES, type DataFileChannelRequest, type DataFileChannelsRequest } from '@pitwall/contracts';
import { dispatchCommands } from '@pitwall/service-host';
import type { DataFileReads } from '../../domain/data-file-reads';
import type { ChannelRead } from '../../domain/read-channels';

/**
 * Thin bus entry point of the data file access operations. Every answer goes through the claim desk: a small one
 * leaves on the bus as bytes the gateway forwards unparsed (the binary channel body with its media type, or JSON
 * assembled around the records the pool encoded); a large one stays here, and the reply is a claim the gateway
 * redeems by streaming it from this instance's claim port.
 */
export function datafileCommands(reads: DataFileReads, desk: ClaimDesk): RequestHandler {
  return dispatchCommands(
    SERVICES.datafile,
    {
      [DATAFILE_COMMANDS.metadata]: async (m, request) => {
        const record = await reads.metadata(m, request.headers.requestId);
        // A catalogue of thousands of channels is a large answer too: the same road as the reads.
        const bytes = record instanceof Uint8Array ? record : Buffer.from(JSON.stringify(record));
        return desk.reply(bytesAnswer(bytes, JSON_MEDIA_TYPE), m.caller.accountId);
      },
      [DATAFILE_COMMANDS.channel]: async (m, request) => {
        // A JSON single-channel read is its one record (the pool writes it without the array around it).
        const tagged = { variant: JSON.stringify([m.binaryType ?? null]), ...heldOf(request) };
        const answer = await reads.channels(m, { channels: [m.channel], field: 'channel', scope: m.scope, maxPoints: m.maxPoints, ...(m.rate !== undefined ? { rate: m.rate } : {}), ...form(m) }, request.headers.requestId, tagged);
        return desk.reply(withMediaType(answer, m.binaryType), m.caller.accountId);
      },
      [DATAFILE_COMMANDS.channels]: async (m, request) => {
        // A JSON batch is framed by the dataset it was read from: part of what the answer's tag stands for.
        const head = m.binaryType ? '' : `${JSON.stringify({ entityId: m.id, entityType: m.type, attachedFileGroupName: m.group, mode: m.mode }).slice(0, -1)},"channels":`;
        const tagged = { variant: JSON.stringify([m.binaryType ?? null, head]), ...heldOf(request) };
        const answer = await reads.channels(m, { channels: m.channels, field: 'channels', scope: m.scope, maxPoints: m.maxPoints, ...(m.rate !== undefined ? { rate: m.rate } : {}), ...form(m) }, request.headers.requestId, tagged);
        if (m.binaryType) return desk.reply(withMediaType(answer, m.binaryType), m.caller.accountId);
        return desk.reply(framedAnswer(Buffer.from(head), answer, Buffer.from('}')), m.caller.accountId);
      },
      [DATAFILE_COMMANDS.distance]: async (m, request) => desk.reply(bytesAnswer(await reads.lapDistance(m, m.lapIndex, m.maxPoints, m.distanceChannel, request.headers.requestId), JSON_MEDIA_TYPE), m.caller.accountId),
      [DATAFILE_COMMANDS.delta]: async (m, request) => {
        const reference = m.reference ? { caller: m.caller, type: m.type, id: m.reference.id, group: m.reference.group } : m;
        return desk.reply(bytesAnswer(await reads.lapDelta(m, m.lapIndex, reference, m.referenceLapIndex, m.maxPoints, m.distanceChannel, request.headers.requestId), JSON_MEDIA_TYPE), m.caller.accountId);
      },
      [DATAFILE_COMMANDS.lapStats]: async (m, request) => desk.reply(bytesAnswer(await reads.lapStats(m, m, request.headers.requestId), JSON_MEDIA_TYPE), m.caller.accountId),
      [DATAFILE_COMMANDS.scatter]: async (m, request) => desk.reply(bytesAnswer(await reads.scatter(m, m, request.headers.requestId), JSON_MEDIA_TYPE), m.caller.accountId),
      [DATAFILE_COMMANDS.histogram]: async (m, request) => desk.reply(bytesAnswer(await reads.histogram(m, m, request.headers.requestId), JSON_MEDIA_TYPE), m.caller.accountId),
      [DATAFILE_COMMANDS.trackMap]: async (m, request) => desk.reply(bytesAnswer(await reads.trackMap(m, m, request.headers.requestId), JSON_MEDIA_TYPE), m.caller.accountId),
    },
    { extra: { ping: async () => 'pong' } },
  );
}

/**
 * The body a read asked for: JSON (no binaryType), the binary channel body, or Arrow (the IPC stream, or the IPC file
 * of the same messages), whose schema metadata names the dataset and the read's parameters.
 */
function form(m: DataFileChannelRequest | DataFileChannelsRequest): Pick<ChannelRead, 'binary' | 'arrow'> {
  if (m.binaryType !== ARROW_STREAM_MEDIA_TYPE && m.binaryType !== ARROW_FILE_MEDIA_TYPE) return { binary: m.binaryType !== undefined };
  const channels = 'channels' in m ? m.channels : [m.channel];
  const schema: Record<string, string> = {
    entityType: m.type,
    entityId: m.id,
    attachedFileGroupName: m.group,
    channels: JSON.stringify(channels),
    scope: JSON.stringify(scopeMetadata(m.scope)),
    ...('mode' in m ? { mode: String(m.mode) } : {}),
    ...(m.maxPoints !== undefined ? { maxPoints: String(m.maxPoints) } : {}),
    ...(m.rate !== undefined ? { rate: String(m.rate) } : {}),
  };
  return { binary: false, arrow: { schema, ...(m.binaryType === ARROW_FILE_MEDIA_TYPE ? { file: true } : {}) } };
}

/** The scope as the Arrow schema names it: a window read to the end of the file (no `duration` asked) has no duration. */
function scopeMetadata(scope: DataFileChannelRequest['scope']): DataFileChannelRequest['scope'] {
  if (scope.mode !== 'window' || scope.duration !== Number.MAX_VALUE) return scope;
  const { duration: _toTheEnd, ...rest } = scope;
  return rest as DataFileChannelRequest['scope'];
}

/** The tag of the answer the asker holds already, when its request names one (held-answer.ts in @pitwall/bus). */
function heldOf(request: BusRequest): { held?: string } {
  const held = request.headers[REQUEST_HELD_ANSWER];
  return held ? { held } : {};
}

/** A binary read answers in the media type the request preferred (`application/octet-stream` or the channels type). */
function withMediaType(answer: BulkAnswer, binaryType: string | undefined): BulkAnswer {
  return binaryType === 'application/octet-stream' ? { ...answer, contentType: binaryType } : answer;
}
