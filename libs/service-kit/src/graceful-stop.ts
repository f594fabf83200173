import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Logger } from './logger';

/** The variable that bounds a graceful stop's wait for in-flight requests, named in its log line. */
export const SHUTDOWN_GRACE_VARIABLE = 'SHUTDOWN_GRACE_MS';
/** How long a stopping server waits for its in-flight requests to be answered, unless `SHUTDOWN_GRACE_MS` says. */
export const DEFAULT_SHUTDOWN_GRACE_MS = 8_000;
/** The longest `SHUTDOWN_GRACE_MS` may be: an orchestrator's stop timeout must pass it anyway (docs/operations.md). */
export const MAX_SHUTDOWN_GRACE_MS = 300_000;
/**
 * What a process is given beyond the grace to close the rest (consumers, the outbox, pools, connections) before it
 * exits 1 regardless: the default grace and this make the 10 s a container is given by default.
 */
export const SHUTDOWN_CLOSE_MS = 2_000;

/** The request ids a grace's log line names at most (the count is always whole). */
const MAX_NAMED_CUT_REQUESTS = 20;

/**
 * A server's graceful stop, as RFC 9112 §9.6 has one: no new connection is taken; a request already taken is answered,
 * and the last answer on each connection says `Connection: close` and closes it; an idle keep-alive connection is
 * closed at once (a client may retry a request it sent on it, since nothing was taken: §9.3.1). Only once the grace
 * passes are the connections still open cut, and that is logged with the requests cut.
 */
export class GracefulStop {
  /** The requests taken and not answered (their responses not closed), by connection. */
  private readonly answering = new Map<Duplex, Set<ServerResponse>>();
  /** Connections whose answer in progress says `Connection: close`: a request pipelined behind it is never taken. */
  private readonly closing = new WeakSet<Duplex>();
  private readonly sockets = new Set<Socket>();
  private stopped: Promise<void> | undefined;
  private draining = false;

  constructor(
    private readonly server: Server,
    private readonly options: { logger?: Logger; graceMs?: number; what: string },
  ) {
    server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
  }

  /** Whether a stop has begun. */
  get stopping(): boolean {
    return this.draining;
  }

  /** Requests taken and not yet answered. */
  get inFlight(): number {
    let n = 0;
    for (const set of this.answering.values()) n += set.size;
    return n;
  }

  /**
   * Called for each request before the app sees it: false when it must not be taken (pipelined behind its connection's
   * last answer while stopping: the connection closes after that answer, and the request was never begun).
   */
  take(req: IncomingMessage, res: ServerResponse): boolean {
    const socket = req.socket;
    if (this.closing.has(socket)) return false;
    let onSocket = this.answering.get(socket);
    if (!onSocket) this.answering.set(socket, (onSocket = new Set()));
    onSocket.add(res);
    res.once('close', () => {
      onSocket.delete(res);
      if (onSocket.size === 0 && this.answering.get(socket) === onSocket) this.answering.delete(socket);
      // Stopping: a connection whose answer said keep-alive (begun before the stop) is idle now, and closes.
      if (this.draining) this.server.closeIdleConnections();
    });
    if (this.draining) this.closeWithLastAnswer(req, res);
    return true;
  }

  /**
   * Stops taking connections, lets every request taken be answered (the last on its connection saying `Connection:
   * close`), and resolves once every connection is closed; at `deadline` (ms since the epoch; default: the grace from
   * now) the connections still open are closed, cutting the requests they carry, which is logged.
   */
  stop(deadline?: number): Promise<void> {
    if (this.stopped) return this.stopped;
    this.closeConnections();
    const graceMs = Math.max(0, (deadline ?? Date.now() + (this.options.graceMs ?? DEFAULT_SHUTDOWN_GRACE_MS)) - Date.now());
    this.stopped = new Promise<void>((done) => {
      const timer = setTimeout(() => this.cut(graceMs), graceMs);
      // close() stops listening and closes the connections idle now; its callback comes once the last one closed.
      this.server.close(() => {
        clearTimeout(timer);
        done();
      });
    });
    return this.stopped;
  }

  /**
   * The first half of a stop, for a server that must still take connections a while (a claim port whose claims are
   * not all fetched yet): from now every connection closes after its last answer, which says `Connection: close`, and
   * the idle ones close at once.
   */
  closeConnections(): void {
    if (this.draining) return;
    this.draining = true;
    for (const [socket, responses] of this.answering) for (const res of responses) this.closeWithLastAnswer({ socket } as IncomingMessage, res);
    this.server.closeIdleConnections();
  }

  /** The grace passed: every connection still open is closed, and the requests cut with them logged. */
  private cut(graceMs: number): void {
    const cut = [...this.answering.values()].flatMap((set) => [...set]);
    const requestIds = cut.map((res) => res.getHeader('X-Request-Id')).filter((id): id is string => typeof id === 'string');
    if (cut.length > 0 || this.sockets.size > 0) {
      this.options.logger?.warn(
        { graceMs: this.options.graceMs ?? graceMs, requestsCut: cut.length, connectionsClosed: this.sockets.size, ...(requestIds.length ? { requestIds: requestIds.slice(0, MAX_NAMED_CUT_REQUESTS) } : {}) },
        `${this.options.what}: the shutdown grace (${SHUTDOWN_GRACE_VARIABLE}, ${this.options.graceMs ?? graceMs} ms) passed with ${cut.length} request${cut.length === 1 ? '' : 's'} unanswered; their connections are cut`,
      );
    }
    this.server.closeAllConnections();
    for (const socket of this.sockets) socket.destroy();
  }

  /**
   * The answer to `res` says `Connection: close` and its connection closes after it, when it is the last request taken
   * on its connection as its head is written (one pipelined behind it says so instead). One whose head is written
   * already closes its connection once it is answered (`take`'s close).
   */
  private closeWithLastAnswer(req: Pick<IncomingMessage, 'socket'>, res: ServerResponse): void {
    if (res.headersSent) return;
    const socket = req.socket;
    const writeHead = res.writeHead;
    const answering = this.answering;
    const closing = this.closing;
    // Every head goes through writeHead (Node's implicit header, express's send, flushHeaders).
    res.writeHead = function lastOnConnection(this: ServerResponse, ...args: unknown[]) {
      const onSocket = answering.get(socket);
      if (!onSocket || [...onSocket].at(-1) === this) {
        this.shouldKeepAlive = false;
        closing.add(socket);
      }
      return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
    } as ServerResponse['writeHead'];
  }
}
