import { z } from 'zod';
import type { BusRequest, RequestHandler, Subscription } from '@pitwall/bus';
import { DEFAULT_TIMING_BATCH_MAX_BYTES, DEFAULT_TIMING_PARTITIONS, MAX_TIMING_PARTITIONS, TIMING_BATCH_ITEMS_MAX, TIMING_BATCH_MAX_BYTES_MAX, SERVICES, TIMING_COMMANDS, partitionService, type TimingCommand } from '@pitwall/contracts';
import { defineService, dispatchCommands } from '@pitwall/service-host';
import { intVar, msVar, prefetchVar } from '@pitwall/service-kit';
import { PartitionBatches } from './partition-batches';

const TimingConfig = z.object({
  /** Partition queues (`svc.timing.p0` …): must equal the gateway's TIMING_PARTITIONS (docs/timing.md). Default 8. */
  TIMING_PARTITIONS: intVar(DEFAULT_TIMING_PARTITIONS, { max: MAX_TIMING_PARTITIONS }),
  /** Updates of one partition an instance holds at once (what queues up goes to the entity-service as one batch). Default 64, 1 to 65535 (AMQP's bound). */
  TIMING_PARTITION_PREFETCH: prefetchVar(64),
  /** Most updates in one entity-service transaction. Default 64, 1 to 1000 (the batch command's bound). */
  TIMING_BATCH_MAX: intVar(64, { max: TIMING_BATCH_ITEMS_MAX }),
  /** Most bytes of updates' JSON in one batch (one bus message); an update larger goes alone. Default 8 MiB, at most 60 MiB. */
  TIMING_BATCH_MAX_BYTES: intVar(DEFAULT_TIMING_BATCH_MAX_BYTES, { max: TIMING_BATCH_MAX_BYTES_MAX }),
  /** Batches an instance has the entity-service apply at once; updates arriving meanwhile queue for the next. Default 2, at least 1. */
  TIMING_BATCHES_IN_FLIGHT: intVar(2),
  /** While a batch is in flight, how long a batch of fewer than 4 updates waits for more to join it (ms; 0: none). Default 1. */
  TIMING_COMPANY_WAIT_MS: msVar(1, { min: 0 }),
});

/**
 * The timing integration (docs/timing.md). The gateway sends each PUT /TimingIntegration/* update to the partition
 * queue its (session, car) hashes to; every instance consumes every partition as a single active consumer, so one
 * instance at a time gets a partition's updates, in the order they were sent, and another takes over (with the
 * unacked ones back in their places) when it dies. Within an instance a partition's updates are applied in delivery
 * order, in batches (partition-batches.ts): at most TIMING_BATCHES_IN_FLIGHT at once, each taking what queued in the
 * partitions without one in flight, sent to the entity-service as one command, applied in one transaction with an
 * inbox record and an answer per update. The entity-service owns the rows and publishes the timing events through
 * its outbox.
 */
export const timingService = defineService({
  name: 'timing-service',
  config: TimingConfig,
  build: async ({ bus, config }) => {
    const batches = new PartitionBatches(bus, { updates: config.TIMING_BATCH_MAX, bytes: config.TIMING_BATCH_MAX_BYTES }, config.TIMING_BATCHES_IN_FLIGHT, config.TIMING_COMPANY_WAIT_MS);
    const partitions: Subscription[] = [];
    // Called on the delivery's own stack (no await before it), so a partition's updates queue in delivery order.
    const commandsOf = (queue: string): RequestHandler =>
      dispatchCommands(SERVICES.timing, { [TIMING_COMMANDS.update]: (m: TimingCommand, request: BusRequest) => batches.apply(queue, m, request) }, { extra: { ping: async () => 'pong' } });
    for (let i = 0; i < config.TIMING_PARTITIONS; i++) {
      const queue = partitionService(SERVICES.timing, i);
      partitions.push(await bus.serve(queue, commandsOf(queue), { singleActiveConsumer: true, prefetch: config.TIMING_PARTITION_PREFETCH }));
    }
    return { commands: commandsOf(SERVICES.timing), stop: async () => void (await Promise.all(partitions.map((p) => p.close()))) };
  },
  bus: {
    // The plain queue answers ping, and updates sent without a partition (ordered per instance only).
    service: SERVICES.timing,
    commands: ({ commands }): RequestHandler => commands,
  },
});
