import { ensureServices, TEST_SERVICES } from './services';

/**
 * Jest globalSetup: makes sure PostgreSQL, Redis and RabbitMQ answer on 127.0.0.1 before any test file runs,
 * starting whichever is down. Reference it from a project's own jest.config.cjs:
 *   globalSetup: require.resolve('../../libs/testing/src/global-setup.ts')
 */
export default async function globalSetup(): Promise<void> {
  await ensureServices(Object.values(TEST_SERVICES), { log: (line) => process.stderr.write(`[global-setup] ${line}\n`) });
}
