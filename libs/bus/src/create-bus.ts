import type { Logger } from '@pitwall/service-kit';
import { AmqpBus } from './amqp-bus';
import { InProcessBus } from './in-process-bus';

export interface CreateBusOptions {
  /** `AMQP_URL`; unset means the embedded single-process stack. */
  url?: string;
  prefix: string;
  logger: Logger;
  requestTimeoutMs?: number;
  /** `BUS_PUBLISH_WINDOW`: events sent and not yet confirmed at most (RabbitMQ only). */
  publishWindow?: number;
  /** `BUS_MAX_MESSAGE_BYTES`: the broker's max_message_size (RabbitMQ only). */
  maxMessageBytes?: number;
}

/** RabbitMQ when a URL is configured, otherwise the in-process bus: the environment decides, not the code path. */
export function createBus(options: CreateBusOptions): AmqpBus | InProcessBus {
  const { url, publishWindow, maxMessageBytes, ...rest } = options;
  return url ? new AmqpBus({ url, publishWindow, maxMessageBytes, ...rest }) : new InProcessBus(rest);
}

