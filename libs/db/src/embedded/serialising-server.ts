import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { PGlite } from '@electric-sql/pglite';
import type { Logger } from '@pitwall/service-kit';

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
const SYNC = new Uint8Array([0x53, 0, 0, 0, 4]);

/** Hands the single PGlite session to one connection at a time, first come first served. */
class SessionLock {
  private held = false;
  private readonly waiters: (() => void)[] = [];

  acquire(): Promise<void> {
    if (!this.held) {
      this.held = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  release(): void {
    const next = this.waiters.shift();
    if (next) next();
    else this.held = false;
  }
}

export interface SerialisingServerOptions {
  db: PGlite;
  host: string;
  port: number;
  logger: Logger;
  /** A connection idle inside an open transaction this long is closed (its transaction rolled back), so one stuck client cannot block every other. */
  idleInTransactionTimeoutMs: number;
}

/**
 * A Postgres wire-protocol server over one PGlite instance that is safe for many concurrent clients.
 *
 * PGlite is a single backend session. The multiplexer in `@electric-sql/pglite-socket` queues individual protocol
 * messages and pins the session to a connection only while `IsTransactionBlock()` is true; the unit of an
 * extended-protocol exchange (Parse/Bind/Describe/Execute … Sync) is not a transaction block, so another
 * connection's Parse can land between this one's Parse and Bind and replace the shared unnamed statement. This
 * server instead:
 * - buffers each connection's messages into whole units (up to Sync, or a simple Query / FunctionCall) and runs a
 *   unit only while holding the session lock, so units never interleave;
 * - keeps the lock after a unit that leaves the session inside a transaction block (BEGIN … COMMIT/ROLLBACK, also
 *   an aborted one), so another connection's statements can never join that transaction;
 * - rolls back and releases when the owning connection drops or idles in its transaction too long.
 * Session-level state is still shared by all clients (SET, named prepared statements, session advisory locks).
 */
export class SerialisingPgliteServer {
  private readonly lock = new SessionLock();
  private readonly connections = new Set<Connection>();
  private server: Server | undefined;

  constructor(private readonly options: SerialisingServerOptions) {}

  async start(): Promise<number> {
    const server = createServer((socket) => {
      const connection = new Connection(socket, this.options, this.lock, () => this.connections.delete(connection));
      this.connections.add(connection);
    });
    server.on('error', (err) => this.options.logger.error({ err }, 'embedded postgres server error'));
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.options.port, this.options.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    return (server.address() as AddressInfo).port;
  }

  /** Stops accepting, closes every connection (rolling back an open transaction) and waits until the session is free. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    await Promise.all([...this.connections].map((c) => c.close()));
    await closed;
    await this.lock.acquire();
    this.lock.release();
  }
}

class Connection {
  private buffer: Buffer = Buffer.alloc(0);
  private started = false;
  private unit: Buffer[] = [];
  private holdsLock = false;
  /** The last unit ended with Flush: an extended-protocol exchange is still open in the session. */
  private midUnit = false;
  private closing: Promise<void> | undefined;
  private work: Promise<void> = Promise.resolve();
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly socket: Socket,
    private readonly options: SerialisingServerOptions,
    private readonly lock: SessionLock,
    private readonly onClosed: () => void,
  ) {
    socket.setNoDelay(true);
    socket.on('data', (data) => this.receive(data));
    socket.on('error', () => void this.close());
    socket.on('close', () => void this.close());
  }

  private receive(data: Buffer): void {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, data]) : data;
    for (;;) {
      const message = this.takeMessage();
      if (!message) return;
      // Messages are handled strictly in arrival order, one at a time.
      this.work = this.work.then(() => this.handle(message)).catch((err: Error) => {
        this.options.logger.error({ err }, 'embedded postgres: closing a connection after an internal error');
        void this.close();
      });
    }
  }

  private takeMessage(): Buffer | undefined {
    // Before startup, messages have no type byte: int32 length, int32 code.
    const headerLength = this.started ? 5 : 4;
    if (this.buffer.length < headerLength) return undefined;
    const length = this.started ? 1 + this.buffer.readInt32BE(1) : this.buffer.readInt32BE(0);
    if (this.buffer.length < length) return undefined;
    const message = this.buffer.subarray(0, length);
    this.buffer = this.buffer.subarray(length);
    if (!this.started) {
      const code = message.readInt32BE(4);
      // SSL/GSS/cancel requests precede (or replace) the startup message; every other startup-phase message is the startup.
      if (code !== SSL_REQUEST && code !== GSSENC_REQUEST && code !== CANCEL_REQUEST) this.started = true;
    }
    return Buffer.from(message);
  }

  private async handle(message: Buffer): Promise<void> {
    if (this.closing) return;
    if (message[0] !== 0 || message.length < 8) {
      // A typed message after startup.
      const type = String.fromCharCode(message[0]);
      if (type === 'X') {
        // Not awaited: close() waits for this very chain of work to drain.
        void this.close();
        return;
      }
      this.unit.push(message);
      // Sync, a simple Query and a FunctionCall each end with ReadyForQuery; Flush asks for output mid-unit.
      if (type === 'S' || type === 'Q' || type === 'F' || type === 'H') await this.runUnit(type === 'H');
      return;
    }
    const code = message.readInt32BE(4);
    if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
      this.socket.write('N');
      return;
    }
    if (code === CANCEL_REQUEST) {
      // PGlite has no other backend to signal; the protocol expects no answer.
      this.socket.end();
      return;
    }
    this.unit.push(message);
    await this.runUnit(false);
  }

  /** Runs the buffered unit with the session to itself; keeps the session while mid-unit or inside a transaction block. */
  private async runUnit(midUnit: boolean): Promise<void> {
    const unit = this.unit;
    this.unit = [];
    this.clearIdleTimer();
    if (!this.holdsLock) {
      await this.lock.acquire();
      this.holdsLock = true;
    }
    if (this.closing) return this.releaseSession();
    const { db } = this.options;
    // A startup packet must reach PGlite on its own; the other messages of a unit go in one call.
    const input = unit[0]?.[0] === 0 ? unit[0] : Buffer.concat(unit);
    const out: Buffer[] = [];
    await db.runExclusive(() => db.execProtocolRawStream(input, { onRawData: (chunk) => out.push(Buffer.from(chunk)) }));
    if (out.length && this.socket.writable) this.socket.write(out.length === 1 ? out[0] : Buffer.concat(out));
    this.midUnit = midUnit;
    if (midUnit) return;
    if (db.isInTransaction()) {
      this.startIdleTimer();
      return;
    }
    this.holdsLock = false;
    this.lock.release();
  }

  private startIdleTimer(): void {
    this.idleTimer = setTimeout(() => {
      this.options.logger.warn({ timeoutMs: this.options.idleInTransactionTimeoutMs }, 'embedded postgres: closing a connection idle in transaction');
      void this.close();
    }, this.options.idleInTransactionTimeoutMs);
    this.idleTimer.unref();
  }

  private clearIdleTimer(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      this.clearIdleTimer();
      this.socket.destroy();
      // Let an in-flight unit finish first; it sees `closing` and gives the session back.
      await this.work.catch(() => undefined);
      await this.releaseSession();
      this.onClosed();
    })();
    return this.closing;
  }

  private async releaseSession(): Promise<void> {
    if (!this.holdsLock) return;
    const { db } = this.options;
    try {
      // The client may have left mid-way: Sync ends an open extended-protocol exchange, ROLLBACK a transaction.
      if (this.midUnit) await db.runExclusive(() => db.execProtocolRaw(SYNC));
      this.midUnit = false;
      if (db.isInTransaction()) await db.exec('ROLLBACK');
    } catch (err) {
      this.options.logger.error({ err }, 'embedded postgres: rollback after disconnect failed');
    } finally {
      this.holdsLock = false;
      this.lock.release();
    }
  }
}
