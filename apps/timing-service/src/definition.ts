import type { BusRequest } from '@pitwall/bus';
import { ENTITY_TIMING_COMMAND, SERVICES, TIMING_COMMANDS, timingPartitionKey, type TimingCommand } from '@pitwall/contracts';
import { defineService, dispatchCommands } from '@pitwall/service-host';
import { KeyedQueue } from './car-queue';

/**
 * The timing integration (docs/timing.md). The gateway sends each PUT /TimingIntegration/* update here; the updates
 * of one car in one session are applied one at a time in arrival order (other cars in parallel), each by one
 * entity-service command that resolves and writes every level in one transaction. The entity-service owns the rows
 * and publishes the timing events through its outbox.
 */
export const timingService = defineService({
  name: 'timing-service',
  build: async ({ bus }) => {
    const cars = new KeyedQueue();
    const apply = (message: TimingCommand, request: BusRequest) =>
      cars.run(timingPartitionKey(message.body), () => bus.requestEncoded(SERVICES.entity, ENTITY_TIMING_COMMAND, message, { headers: { ...request.headers } }));
    return { apply };
  },
  bus: {
    service: SERVICES.timing,
    commands: ({ apply }) => dispatchCommands(SERVICES.timing, { [TIMING_COMMANDS.update]: (m, request) => apply(m, request) }, { extra: { ping: async () => 'pong' } }),
  },
});
