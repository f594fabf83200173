export * from './types';
export { RedisCache, type RedisCacheOptions } from './redis-cache';
export { MemoryCache } from './memory-cache';
export { CircuitBreaker, CircuitOpenError, type BreakerState, type CircuitBreakerOptions } from './circuit-breaker';
export { redisCacheSettings, redisCacheOptions, type RedisCacheSettings } from './config';
