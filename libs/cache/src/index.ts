export * from './types';
export { RedisCache } from './redis-cache';
export { MemoryCache } from './memory-cache';
