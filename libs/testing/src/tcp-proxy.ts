import { createServer, connect, type Server, type Socket } from 'node:net';
import { freePort } from './embedded';

/** A port that forwards to a real server only while the test says so: the server's outage and return, without touching it. */
export interface TcpProxy {
  /** The port a stack is pointed at: closed (connections refused) until `open()`. */
  readonly port: number;
  /** Starts forwarding every connection to the target. */
  open(): Promise<void>;
  /** Stops listening and cuts every forwarded connection, as a server that went away. */
  cut(): Promise<void>;
}

/** A proxy on a free loopback port to `target` (e.g. the shared Redis), closed until opened. */
export async function tcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const port = await freePort();
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  return {
    port,
    open: () =>
      new Promise<void>((resolve, reject) => {
        if (server) return resolve();
        const listening = createServer((client) => {
          const upstream = connect(target.port, target.host);
          track(client);
          track(upstream);
          client.pipe(upstream).pipe(client);
          client.on('close', () => upstream.destroy());
          upstream.on('close', () => client.destroy());
        });
        listening.once('error', reject);
        listening.listen(port, '127.0.0.1', () => {
          server = listening;
          resolve();
        });
      }),
    cut: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        if (!server) return resolve();
        server.close(() => resolve());
        server = undefined;
      }),
  };
}
