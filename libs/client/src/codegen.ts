import { pathParameterNames, type ClientMethod, type Operation } from '@pitwall/contracts';

/** Source of `generated.ts`: the client methods of every operation of the table, named as the wrappers name them. */
export function generateClientSource(operations: readonly Operation[]): string {
  const methods = operations.flatMap((op) => op.client.map((method) => clientMethodSource(op, method)));
  // A named contracts type as the result (`SimulationResults`, `DataFileMetadataJson`) is imported like a body type.
  const types = new Set(operations.flatMap((op) => op.client.flatMap((m) => [...(m.body ? [m.body.type] : []), ...(/\bEntityJson\b/.test(m.returns) ? ['EntityJson'] : []), ...(m.channelRead || /^[A-Z]\w+$/.test(m.returns) ? [m.returns] : [])])));
  const channelReads = operations.some((op) => op.client.some((m) => m.channelRead));
  const includes = operations.some((op) => op.client.some((m) => m.include));
  return [
    '// Generated from the operation table by `npm run gen:client` (libs/client/src/codegen.ts). Do not edit.',
    ...(types.size ? [`import type { ${[...types].sort().join(', ')} } from '@pitwall/contracts';`] : []),
    `import { ClientBase, ${includes ? 'includeQuery, ' : ''}type ClientResult${includes ? ', type Include' : ''} } from './client-base';`,
    ...(channelReads ? ["import type { ChannelReadOptions, ChannelSeries, ChannelsReadOptions } from './channels';"] : []),
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
  const params = pathParameterNames(op.path);
  const query = m.query ?? [];
  const args = [
    ...params.map((p) => `${p}: string`),
    ...query.map((q) => `${q}: ${op.repeatedQuery?.includes(q) ? 'readonly string[]' : 'string'}`),
    ...(m.body ? [`${m.body.name}: ${m.body.type}${m.body.defaultEmpty ? ' = {}' : ''}`] : []),
    ...(m.include ? ['parametersToInclude?: Include'] : []),
  ];
  const queryValues = [...query, ...(m.include ? ['...includeQuery(parametersToInclude)'] : [])];
  const call = [`'${op.method.toUpperCase()}'`, `'${op.path}'`, `{${params.length ? ` ${params.join(', ')} ` : ''}}`, `{${queryValues.length ? ` ${queryValues.join(', ')} ` : ''}}`, ...(m.body ? [m.body.name] : [])];
  const shown = query.length ? `${op.path}?${query.map((q) => `${q}=`).join('&')}` : op.path;
  return [
    `  /** ${op.method.toUpperCase()} ${shown}: ${op.summary} (${op.operationId}) */`,
    `  ${m.name}(${args.join(', ')}): Promise<ClientResult<${m.returns}>> {`,
    `    return this.call(${call.join(', ')});`,
    '  }',
  ];
}

/**
 * A channel read: path parameters (and `channel`, or the batch body), then options (scope, maxPoints, binary). With
 * `binary: true` the body is the binary encoding, decoded into series whose samples are views on it.
 */
function channelReadSource(op: Operation, m: ClientMethod): string[] {
  const params = pathParameterNames(op.path);
  const query = m.channelRead === 'query';
  const args = [...params.map((p) => `${p}: string`), ...(query ? ['channel: string'] : [`${m.body?.name ?? 'body'}: ${m.body?.type ?? 'unknown'}`]), `options: ${query ? 'ChannelReadOptions' : 'ChannelsReadOptions'} = {}`];
  const call = [`'${op.method.toUpperCase()}'`, `'${op.path}'`, `{ ${params.join(', ')} }`, query ? '{ channel, ...options }' : 'options', query ? 'undefined' : (m.body?.name ?? 'body')];
  return [
    `  /** ${op.method.toUpperCase()} ${op.path}: ${op.summary} (${op.operationId}); \`binary: true\` answers ChannelSeries[] */`,
    `  ${m.name}(${args.join(', ')}): Promise<ClientResult<${m.returns} | ChannelSeries[]>> {`,
    `    return this.channelRead(${call.join(', ')});`,
    '  }',
  ];
}
