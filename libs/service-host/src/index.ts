export { BaseServiceConfig, BusSettings, ShutdownSettings } from './settings';
export { defineService, type EventSubscription, type HttpPart, type PartsCleanUp, type ServiceConfig, type ServiceContext, type ServiceDefinition, type ServiceParts, type SharedTransports, type WorkerPool } from './definition';
export { startService, type RunningService, type StartOptions } from './start-service';
export { runMain } from './run-main';
export { holdWhileUnavailable, isUnavailable, type HoldOptions } from './hold-while-unavailable';
export { applyV8Flags } from './v8-flags';
export * from './dispatch';
