export * from './registry';
export * from './wire';
export * from './date-time';
export * from './binding';
export * from './messages';
export * from './openapi';
