export * from './app-error';
export * from './problem';
export * from './logger';
export * from './config';
export * from './lifecycle';
export * from './http';
export * from './field-refusals';
export * from './arrays';
