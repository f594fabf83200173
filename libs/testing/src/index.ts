export { uniquePrefix } from './unique-prefix';
export { ensureServices, TEST_SERVICES, type TestService, type TestServiceName, type EnsureOptions } from './services';
export { freePort, REPO_ROOT, startEmbedded, type Embedded } from './embedded';
export { verifyWebhook } from './webhooks';
export { tcpProxy, type TcpProxy } from './tcp-proxy';
