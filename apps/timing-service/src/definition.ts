import { SERVICES } from '@pitwall/contracts';
import { defineService } from '@pitwall/service-host';
import { AppError } from '@pitwall/service-kit';

/**
 * The Timing endpoints are not built yet: the service joins the bus, answers `ping` and its health endpoints, and
 * refuses every other command with a 501 so a caller never waits on silence.
 */
export const timingService = defineService({
  name: 'timing-service',
  bus: {
    service: SERVICES.timing,
    commands: () => async (request) => {
      throw new AppError(501, `timing-service does not implement ${request.type} yet`);
    },
  },
});
