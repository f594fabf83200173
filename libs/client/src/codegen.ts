import { pathParameterNames, type ClientMethod, type Operation } from '@pitwall/contracts';

/** Source of `generated.ts`: the client methods of every operation of the table, named as the wrappers name them. */
export function generateClientSource(operations: readonly Operation[]): string {
  const methods = operations.flatMap((op) => op.client.map((method) => clientMethodSource(op, method)));
  // A named contracts type as the result (`SimulationResults`, `DataFileMetadataJson`) is imported like a body type.
  const uploads = operations.some((op) => op.client.some((m) => m.attachmentUpload));
  const types = new Set(operations.flatMap((op) => op.client.filter((m) => !m.attachmentUpload).flatMap((m) => [...(m.body ? [m.body.type] : []), ...(/\bEntityJson\b/.test(m.returns) ? ['EntityJson'] : []), ...(m.channelRead || /^[A-Z]\w+$/.test(m.returns) ? [m.returns] : [])])));
  if (uploads) types.add('PrepareAttachmentBody');
  const channelReads = operations.some((op) => op.client.some((m) => m.channelRead));
  const includes = operations.some((op) => op.client.some((m) => m.include));
  return [
    '// Generated from the operation table by `npm run gen:client` (libs/client/src/codegen.ts). Do not edit.',
    ...(types.size ? [`import type { ${[...types].sort().join(', ')} } from '@pitwall/contracts';`] : []),
    `import { ClientBase, ${includes ? 'includeQuery, ' : ''}type ClientResult${includes ? ', type Include' : ''} } from './client-base';`,
    ...(channelReads ? ["import type { ChannelReadAnswer, ChannelReadOptions, ChannelsReadOptions } from './channels';"] : []),
    ...(uploads ? ["import type { AttachmentResult, AttachmentSource } from './attachment-upload';"] : []),
    '',
    '/** Typed client for the Pitwall API; every call returns `{ success, message, statusCode, returnValue }`. */',
    'export class PitwallClient extends ClientBase {',
    ...methods.flat(),
    '}',
    '',
  ].join('\n');
}

/** Arguments in order: path parameters, the required query values, the body, then parametersToInclude. */
function clientMethodSource(op: Operation, m: ClientMethod): string[] {
  if (m.channelRead) return channelReadSource(op, m);
  if (m.attachmentUpload) return attachmentUploadSource(op, m);
  const params = pathParameterNames(op.path);
  const query = m.query ?? [];
  const args = [
    ...params.map((p) => `${p}: string`),
    ...query.map((q) => `${q}: ${op.repeatedQuery?.includes(q) ? 'readonly string[]' : 'string'}`),
    ...(m.body ? [`${m.body.name}: ${m.body.type}${m.body.defaultEmpty ? ' = {}' : ''}`] : []),
    ...(m.include ? ['parametersToInclude?: Include'] : []),
    ...(m.optionalQuery?.length ? [`options: { ${m.optionalQuery.map((q) => `${q}?: string`).join('; ')} } = {}`] : []),
  ];
  const queryValues = [...query, ...(m.include ? ['...includeQuery(parametersToInclude)'] : []), ...(m.optionalQuery?.length ? ['...options'] : [])];
  const call = [`'${op.method.toUpperCase()}'`, `'${op.path}'`, `{${params.length ? ` ${params.join(', ')} ` : ''}}`, `{${queryValues.length ? ` ${queryValues.join(', ')} ` : ''}}`, ...(m.body ? [m.body.name] : [])];
  const shown = query.length ? `${op.path}?${query.map((q) => `${q}=`).join('&')}${m.optionalQuery?.length ? `[&${m.optionalQuery.map((q) => `${q}=`).join('&')}]` : ''}` : op.path;
  return [
    `  /** ${op.method.toUpperCase()} ${shown}: ${op.summary} (${op.operationId}) */`,
    `  ${m.name}(${args.join(', ')}): Promise<ClientResult<${m.returns}>> {`,
    `    return this.call(${call.join(', ')});`,
    '  }',
  ];
}

/**
 * A channel read: path parameters (and `channel`, or the batch body), then options (scope, maxPoints, binary). With
 * `binary: true` the body is the binary encoding, decoded into series whose samples are views on it; with `arrow: true`
 * the Arrow IPC stream's bytes.
 */
function channelReadSource(op: Operation, m: ClientMethod): string[] {
  const params = pathParameterNames(op.path);
  const query = m.channelRead === 'query';
  const optionsType = query ? 'ChannelReadOptions' : 'ChannelsReadOptions';
  const args = [...params.map((p) => `${p}: string`), ...(query ? ['channel: string'] : [`${m.body?.name ?? 'body'}: ${m.body?.type ?? 'unknown'}`]), `options: O = {} as O`];
  const call = [`'${op.method.toUpperCase()}'`, `'${op.path}'`, `{ ${params.join(', ')} }`, query ? '{ channel, ...options }' : 'options', query ? 'undefined' : (m.body?.name ?? 'body')];
  return [
    `  /** ${op.method.toUpperCase()} ${op.path}: ${op.summary} (${op.operationId}); \`binary: true\` answers ReadSeries[], \`arrow: true\` the Arrow stream's bytes */`,
    `  ${m.name}<O extends ${optionsType} = Record<never, never>>(${args.join(', ')}): Promise<ClientResult<ChannelReadAnswer<O, ${m.returns}>>> {`,
    `    return this.channelRead(${call.join(', ')}) as Promise<ClientResult<ChannelReadAnswer<O, ${m.returns}>>>;`,
    '  }',
  ];
}

/**
 * The one-call upload on an attachment prepare's path: `add` (accountId, entityId, options, file) prepares, PUTs the
 * bytes (LZ4-compressed when UseCompression) and finalises; `retry` (result, optional source) resumes where it failed.
 */
function attachmentUploadSource(op: Operation, m: ClientMethod): string[] {
  if (m.attachmentUpload === 'add') {
    return [
      `  /** ${op.method.toUpperCase()} ${op.path}, PUT Url, then ServerAttachedFileState 2: upload an attached file in one call (${op.operationId}); status says which step failed */`,
      `  ${m.name}(accountId: string, entityId: string, options: PrepareAttachmentBody, file: AttachmentSource): Promise<${m.returns}> {`,
      `    return this.addAttachment('${op.path}', accountId, entityId, options, file);`,
      '  }',
    ];
  }
  return [
    `  /** Resumes a failed upload of ${op.path} from the step that failed (a stream already read must be passed again as \`file\`) */`,
    `  ${m.name}(result: ${m.returns}, file?: AttachmentSource): Promise<${m.returns}> {`,
    `    return this.retryAttachment('${op.path}', result, file);`,
    '  }',
  ];
}
