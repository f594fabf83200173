import { createServer } from 'node:net';

/**
 * A port nothing listens on now (PORT=0): chosen before the apps start, because the entity-service signs upload URLs
 * with the gateway's address, and the demo's seeding uploads through them.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}
