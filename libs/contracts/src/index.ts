export * from './registry';
export * from './wire';
export * from './binding';
export * from './messages';
export * from './openapi';
