export { uniquePrefix } from './unique-prefix';
export { ensureServices, TEST_SERVICES, type TestService, type TestServiceName, type EnsureOptions } from './services';
