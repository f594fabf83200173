import { fieldErrors, isBusTarget, COMMANDS, OPERATIONS, safeParseReporting, type CommandMessage, type CommandName, type CommandsOf, type Operation } from '@pitwall/contracts';
import type { BusRequest, RequestHandler } from '@pitwall/bus';
import { AppError } from '@pitwall/service-kit';

/** A service's handler of one command: the message typed by the command's schema, and the request it came in. */
export type CommandHandler<N extends CommandName> = (message: CommandMessage<N>, request: BusRequest) => Promise<unknown>;

/** One handler per command of the service in the operation table. */
export type ServiceCommandHandlers<S extends string> = { [N in CommandsOf<S>]: CommandHandler<N> };

export interface DispatchOptions {
  /** Request types the service answers beyond the table's commands (`ping`), unchecked. */
  extra?: Record<string, RequestHandler>;
  /** The table to check against (tests pass their own). */
  operations?: readonly Operation[];
}

/**
 * The bus RequestHandler of one service, built from its handlers keyed by the table's command names. It throws at
 * start-up when a command the table routes to this service has no handler. Each message gets the command's cheap
 * envelope check (other producers can publish): its shape, not a second validation of the body the gateway proved.
 */
export function dispatchCommands<S extends string>(service: S, handlers: ServiceCommandHandlers<S>, options: DispatchOptions = {}): RequestHandler {
  const { extra = {}, operations = OPERATIONS } = options;
  const routed = new Set(operations.flatMap((op) => (isBusTarget(op.target) && op.target.service === service ? [op.target.name] : [])));
  const missing = [...routed].filter((name) => !Object.hasOwn(handlers, name));
  if (missing.length) throw new Error(`Service ${service} has no handler for ${missing.join(', ')}, which the operation table routes to it`);
  const table = handlers as Record<string, (message: unknown, request: BusRequest) => Promise<unknown>>;
  return async (request) => {
    const handler = Object.hasOwn(table, request.type) ? table[request.type] : undefined;
    const command = Object.hasOwn(COMMANDS, request.type) ? COMMANDS[request.type as CommandName] : undefined;
    if (!handler || !command) {
      const other = Object.hasOwn(extra, request.type) ? extra[request.type] : undefined;
      if (!other) throw AppError.badRequest(`The ${service} service has no command ${request.type}`);
      return other(request);
    }
    const checked = safeParseReporting(command.envelope, request.payload);
    if (!checked.success) throw AppError.badRequest(`The ${request.type} message is not valid`, fieldErrors(checked.error));
    return handler(checked.data, request);
  };
}
