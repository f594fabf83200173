import type { Logger } from '@pitwall/service-kit';
import { AmqpBus } from './amqp-bus';
import { InProcessBus } from './in-process-bus';

export interface CreateBusOptions {
  /** `AMQP_URL`; unset means the embedded single-process stack. */
  url?: string;
  prefix: string;
  logger: Logger;
  requestTimeoutMs?: number;
}

/** RabbitMQ when a URL is configured, otherwise the in-process bus: the environment decides, not the code path. */
export function createBus(options: CreateBusOptions): AmqpBus | InProcessBus {
  const { url, ...rest } = options;
  return url ? new AmqpBus({ url, ...rest }) : new InProcessBus(rest);
}

