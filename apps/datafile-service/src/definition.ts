import { SERVICES } from '@pitwall/contracts';
import { defineService } from '@pitwall/service-host';
import { AppError } from '@pitwall/service-kit';

/**
 * The DataFile endpoints are not built yet: the service joins the bus, answers `ping` and its health endpoints, and
 * refuses every other command with a 501 so a caller never waits on silence.
 */
export const datafileService = defineService({
  name: 'datafile-service',
  bus: {
    service: SERVICES.datafile,
    commands: () => async (request) => {
      throw new AppError(501, `datafile-service does not implement ${request.type} yet`);
    },
  },
});
