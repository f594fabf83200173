import { createServer } from 'node:net';

/** A port free now: the entity-service signs upload URLs with the gateway's address, so it is chosen before. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}
