export * from './registry';
export * from './wire';
export * from './binding';
export * from './messages';
export * from './openapi';
export * from './commands';
export * from './entity-schemas';
export * from './operations';
