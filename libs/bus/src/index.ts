export * from './types';
export { AmqpBus, DEFAULT_PUBLISH_WINDOW, type AmqpBusOptions } from './amqp-bus';
export { InProcessBus, InProcessBroker, type InProcessBusOptions, DEFAULT_REQUEST_TIMEOUT_MS, DEFAULT_PREFETCH, DEFAULT_MAX_DELIVERIES } from './in-process-bus';
export { createBus, type CreateBusOptions } from './create-bus';
export { serveCommands, type CommandHandlers } from './serve-commands';
export { Topology, topicMatches } from './topology';
export { EncodedJson } from './encoded-json';
export { COMMAND_ID_HEADER, DEADLINE_HEADER, OUTCOME_UNKNOWN_SENTENCE, OUTCOME_UNKNOWN_TYPE, requestDeadline, unansweredError } from './wire';
export * from './claims';
