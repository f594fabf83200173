import { AppError } from '@pitwall/service-kit';
import type { Bus, RequestHandler, ServeOptions, Subscription } from './types';

/** One handler per request type a service answers, e.g. `{ 'entity.get': getEntity }`. */
export type CommandHandlers = Record<string, RequestHandler>;

/** Serves `service` by dispatching on the request type; an unknown type is the caller's mistake: 400. */
export function serveCommands(bus: Bus, service: string, handlers: CommandHandlers, options?: ServeOptions): Promise<Subscription> {
  return bus.serve(
    service,
    async (request) => {
      const handler = Object.hasOwn(handlers, request.type) ? handlers[request.type] : undefined;
      if (!handler) throw AppError.badRequest(`Service ${service} does not handle requests of type ${request.type}`);
      return handler(request);
    },
    options,
  );
}
