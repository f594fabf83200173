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
  /**
   * A silent partition: every connection, and every new one, stays open but no byte passes either way (no reset, no
   * close), until `release()`, which lets what was held through.
   */
  hold(): void;
  release(): void;
}

/** A proxy on a free loopback port to `target` (e.g. the shared Redis), closed until opened. */
export async function tcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const port = await freePort();
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let held = false;
  /** Each forwarded connection: client and upstream, piped both ways unless held. */
  const pairs = new Set<[Socket, Socket]>();
  const flow = ([client, upstream]: [Socket, Socket]) => {
    client.pipe(upstream);
    upstream.pipe(client);
  };
  const stop = ([client, upstream]: [Socket, Socket]) => {
    client.unpipe(upstream);
    upstream.unpipe(client);
    client.pause();
    upstream.pause();
  };
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
          const pair: [Socket, Socket] = [client, upstream];
          pairs.add(pair);
          if (held) client.pause();
          else flow(pair);
          client.on('close', () => {
            pairs.delete(pair);
            upstream.destroy();
          });
          upstream.on('close', () => client.destroy());
        });
        listening.once('error', reject);
        listening.listen(port, '127.0.0.1', () => {
          server = listening;
          resolve();
        });
      }),
    hold: () => {
      if (!held) for (const pair of pairs) stop(pair);
      held = true;
    },
    release: () => {
      if (held) for (const pair of pairs) flow(pair);
      held = false;
    },
    cut: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        if (!server) return resolve();
        server.close(() => resolve());
        server = undefined;
      }),
  };
}
