import type { Bus } from '@pitwall/bus';
import { SERVICES } from '@pitwall/contracts';
import { hostService, runMain, type ServiceHandle } from '@pitwall/service-host';
import { AppError } from '@pitwall/service-kit';

/**
 * Composition root. The Timing endpoints are not built yet: the service joins the bus, answers `ping` and its
 * health endpoints, and refuses every other command with a 501 so a caller never waits on silence.
 */
export function start(env: NodeJS.ProcessEnv = process.env, shared: { bus?: Bus } = {}): Promise<ServiceHandle> {
  return hostService({
    name: 'timing-service',
    busService: SERVICES.timing,
    env,
    shared,
    build: async () => ({
      handler: async (request) => {
        throw new AppError(501, `timing-service does not implement ${request.type} yet`);
      },
    }),
  });
}

if (require.main === module) runMain('timing-service', () => start());
