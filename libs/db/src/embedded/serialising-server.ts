import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { PGlite } from '@electric-sql/pglite';
import type { Logger } from '@pitwall/service-kit';

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
const SYNC = new Uint8Array([0x53, 0, 0, 0, 4]);
/** ReadyForQuery, idle (not in a transaction). */
const READY_IDLE = Buffer.from([0x5a, 0, 0, 0, 5, 0x49]);
/** SQLSTATE cannot_connect_now: the client maps it to "busy, retry later" (a 503 with Retry-After). */
const BUSY_SQLSTATE = '57P03';
/** SQLSTATE invalid_password, and protocol_violation. */
const BAD_PASSWORD_SQLSTATE = '28P01';
const PROTOCOL_VIOLATION_SQLSTATE = '08P01';
/** AuthenticationCleartextPassword: the client answers with a PasswordMessage ('p'). */
const ASK_PASSWORD = Buffer.from([0x52, 0, 0, 0, 8, 0, 0, 0, 3]);
/**
 * The longest message taken before a connection has authenticated (a startup packet's user, database and options; a
 * password): a connection that announces more is closed, never buffered (PostgreSQL's own bound is 10,000 bytes).
 */
const MAX_UNAUTHENTICATED_MESSAGE = 10_000;
/**
 * A connection that has not given its password this long after it opened is closed (PostgreSQL's
 * authentication_timeout), so connections opened and left idle do not stay. Not capped in number: a cap would let
 * another local user hold every place and keep the apps' own pools out.
 */
const LOGIN_TIMEOUT_MS = 10_000;

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

  /** Like acquire, but gives up after `timeoutMs` (false: not acquired, and no longer waiting). */
  tryAcquire(timeoutMs: number | undefined): Promise<boolean> {
    if (timeoutMs === undefined) return this.acquire().then(() => true);
    if (!this.held) {
      this.held = true;
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const waiter = (): void => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        const at = this.waiters.indexOf(waiter);
        if (at >= 0) this.waiters.splice(at, 1);
        resolve(false);
      }, timeoutMs);
      this.waiters.push(waiter);
    });
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
  /**
   * A connection's statement that waits this long for the session (another connection's transaction holds it) is
   * refused with SQLSTATE 57P03 instead of waiting on; the client sees "busy, retry" rather than hanging. Default:
   * wait as long as it takes.
   */
  sessionWaitTimeoutMs?: number;
  /**
   * The password every connection must give (cleartext authentication, on the loopback interface) before its startup
   * reaches PGlite; a wrong one is refused with SQLSTATE 28P01 and the connection closed. Without one, any local
   * process could read and change every account through the port.
   */
  password?: string;
  /** With a password: a connection that has not given it this long after it opened is closed (default 10 s). */
  loginTimeoutMs?: number;
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
 * - gives each connection's named prepared statements names of their own (`c<n>_<name>`, in Parse, Bind, Describe and
 *   Close), so two connections that prepare the same name (node-postgres names a statement once per connection) do
 *   not meet in the one session, and deallocates them when the connection goes.
 * Other session-level state is still shared by all clients (SET, session advisory locks).
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

let connectionCount = 0;

class Connection {
  /** Prefix of this connection's prepared statement names in the shared session. */
  private readonly statementPrefix = `c${++connectionCount}_`;
  /** The session-side names of the statements this connection has prepared. */
  private readonly statements = new Set<string>();
  private buffer: Buffer = Buffer.alloc(0);
  private started = false;
  /** The startup packet held while its password is asked for (`options.password`); then the connection is authenticated. */
  private heldStartup: Buffer | undefined;
  private authenticated: boolean;
  /** The startup phase's SSL and GSS encryption requests seen (one of each at most, as PostgreSQL takes). */
  private readonly negotiations = new Set<number>();
  /** Typed messages taken: the first, on a connection that must log in, is its password (bounded like the startup). */
  private typedTaken = 0;
  private loginTimer: NodeJS.Timeout | undefined;
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
    this.authenticated = options.password === undefined;
    if (!this.authenticated) this.loginTimer = setTimeout(() => this.refuse(PROTOCOL_VIOLATION_SQLSTATE, 'no password given in time'), options.loginTimeoutMs ?? LOGIN_TIMEOUT_MS).unref();
    socket.setNoDelay(true);
    socket.on('data', (data) => this.receive(data));
    socket.on('error', () => void this.close());
    socket.on('close', () => void this.close());
  }

  private receive(data: Buffer): void {
    if (this.closing) return;
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, data]) : data;
    for (;;) {
      let message: Buffer | undefined;
      try {
        message = this.takeMessage();
      } catch (err) {
        // A message this server cannot even frame closes its own connection, never the process.
        this.options.logger.warn({ err }, 'embedded postgres: closing a connection that sent an unreadable message');
        void this.close();
        return;
      }
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
    // A startup-phase message holds its length and a code (8 bytes at least), a typed one its type and length (5).
    // Those before the password is checked (the startup phase's, the password itself) are bounded as PostgreSQL
    // bounds them; the later ones are the session's, whatever their size.
    const least = this.started ? 5 : 8;
    const beforeLogin = !this.started || (this.options.password !== undefined && this.typedTaken === 0);
    if (length < least || (beforeLogin && length > MAX_UNAUTHENTICATED_MESSAGE)) {
      this.refuse(PROTOCOL_VIOLATION_SQLSTATE, `a message of ${length} bytes${beforeLogin ? ' before authentication' : ''}`);
      return undefined;
    }
    if (this.buffer.length < length) return undefined;
    const message = this.buffer.subarray(0, length);
    this.buffer = this.buffer.subarray(length);
    if (!this.started) {
      const code = message.readInt32BE(4);
      // SSL/GSS/cancel requests precede (or replace) the startup message; every other startup-phase message is the
      // startup. One SSL and one GSS request at most: each is answered, and a client asking again and again (never
      // reading) would have the answers pile up.
      if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
        if (this.negotiations.has(code)) {
          this.refuse(PROTOCOL_VIOLATION_SQLSTATE, 'a second SSL or GSS encryption request');
          return undefined;
        }
        this.negotiations.add(code);
      } else if (code !== CANCEL_REQUEST) this.started = true;
    } else this.typedTaken += 1;
    return Buffer.from(message);
  }

  private async handle(message: Buffer): Promise<void> {
    if (this.closing) return;
    if (this.heldStartup) return this.authenticate(message);
    if (message[0] !== 0 || message.length < 8) {
      // A typed message after startup.
      const type = String.fromCharCode(message[0]);
      if (type === 'X') {
        // Not awaited: close() waits for this very chain of work to drain.
        void this.close();
        return;
      }
      this.unit.push(type === 'P' || type === 'B' || type === 'D' || type === 'C' ? this.ownStatementNames(type, message) : message);
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
    if (!this.authenticated) {
      // The startup waits for the password; PGlite then answers it (AuthenticationOk, the parameters, ready).
      this.heldStartup = message;
      this.socket.write(ASK_PASSWORD);
      return;
    }
    this.unit.push(message);
    await this.runUnit(false);
  }

  /** The answer to the password asked for: the right one lets the held startup through, anything else closes. */
  private async authenticate(message: Buffer): Promise<void> {
    const startup = this.heldStartup as Buffer;
    this.heldStartup = undefined;
    if (message[0] !== 0x70) return this.refuse(PROTOCOL_VIOLATION_SQLSTATE, 'expected a password message');
    const end = message.indexOf(0, 5);
    const given = message.subarray(5, end < 0 ? message.length : end);
    if (!samePassword(given, this.options.password as string)) return this.refuse(BAD_PASSWORD_SQLSTATE, 'password authentication failed for user "postgres"');
    this.loggedIn();
    this.unit.push(startup);
    await this.runUnit(false);
  }

  private loggedIn(): void {
    this.authenticated = true;
    this.clearLoginTimer();
  }

  /** Logged in, or closed: its login's time bound is off. */
  private clearLoginTimer(): void {
    clearTimeout(this.loginTimer);
    this.loginTimer = undefined;
  }

  /** A fatal error of the connection (its login refused, or a message it cannot frame), then the connection closed. */
  private refuse(sqlState: string, message: string): void {
    // Whatever else it sent is never read.
    this.buffer = Buffer.alloc(0);
    if (this.socket.writable) this.socket.write(errorResponse('FATAL', message, sqlState));
    void this.close();
  }

  /** The message with the statement name it carries (if named) replaced by this connection's own name for it. */
  private ownStatementNames(type: 'P' | 'B' | 'D' | 'C', message: Buffer): Buffer {
    let at = 5;
    if (type === 'B') at = message.indexOf(0, at) + 1; // the portal's name comes first
    else if (type === 'D' || type === 'C') {
      if (message[at] !== 0x53) return message; // 'P': a portal, not a statement
      at += 1;
    }
    const end = message.indexOf(0, at);
    if (at <= 0 || end < 0 || end === at) return message; // malformed (PGlite will say so) or the unnamed statement
    const name = `${this.statementPrefix}${message.subarray(at, end).toString('utf8')}`;
    if (type === 'P') this.statements.add(name);
    else if (type === 'C') this.statements.delete(name);
    const body = Buffer.concat([message.subarray(5, at), Buffer.from(name, 'utf8'), message.subarray(end)]);
    return typedMessage(message[0] as number, body);
  }

  /** Runs the buffered unit with the session to itself; keeps the session while mid-unit or inside a transaction block. */
  private async runUnit(midUnit: boolean): Promise<void> {
    const unit = this.unit;
    this.unit = [];
    this.clearIdleTimer();
    if (!this.holdsLock) {
      // Not holding the session means not in a transaction: a ROLLBACK then has nothing to undo and needs no wait.
      if (isRollback(unit)) return void this.socket.write(Buffer.concat([commandComplete('ROLLBACK'), READY_IDLE]));
      if (!(await this.lock.tryAcquire(this.options.sessionWaitTimeoutMs))) return this.refuseBusy(unit, midUnit);
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

  /** The session stayed held past the bound: the unit is answered with an error and never runs. */
  private refuseBusy(unit: Buffer[], midUnit: boolean): void {
    this.options.logger.warn({ waitedMs: this.options.sessionWaitTimeoutMs }, 'embedded postgres: session busy; statement refused');
    const startup = unit[0]?.[0] === 0;
    const message = 'the embedded database is busy with another transaction; retry shortly';
    if (startup || midUnit) {
      // Before startup, and mid-way through an extended-protocol exchange, there is no clean point to resume at.
      if (this.socket.writable) this.socket.write(errorResponse('FATAL', message));
      void this.close();
      return;
    }
    if (this.socket.writable) this.socket.write(Buffer.concat([errorResponse('ERROR', message), READY_IDLE]));
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
      this.clearLoginTimer();
      this.socket.destroy();
      // Let an in-flight unit finish first; it sees `closing` and gives the session back.
      await this.work.catch(() => undefined);
      await this.releaseSession();
      await this.deallocateStatements();
      this.onClosed();
    })();
    return this.closing;
  }

  /** Drops this connection's prepared statements from the shared session, once it is free. */
  private async deallocateStatements(): Promise<void> {
    if (this.statements.size === 0) return;
    await this.lock.acquire();
    try {
      const { db } = this.options;
      for (const name of this.statements) await db.exec(`DEALLOCATE "${name.replace(/"/g, '""')}"`).catch(() => undefined);
      this.statements.clear();
    } finally {
      this.lock.release();
    }
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

/** A simple-protocol unit that is just ROLLBACK (what a pg client sends after a failed BEGIN or statement). */
function isRollback(unit: Buffer[]): boolean {
  const [message] = unit;
  if (unit.length !== 1 || !message || message[0] !== 0x51) return false;
  return /^\s*rollback\s*;?\s*$/i.test(message.subarray(5, message.length - 1).toString('utf8'));
}

function commandComplete(tag: string): Buffer {
  return typedMessage(0x43, Buffer.from(`${tag}\0`, 'utf8'));
}

function errorResponse(severity: 'ERROR' | 'FATAL', message: string, sqlState = BUSY_SQLSTATE): Buffer {
  const field = (code: string, value: string) => Buffer.from(`${code}${value}\0`, 'utf8');
  return typedMessage(0x45, Buffer.concat([field('S', severity), field('V', severity), field('C', sqlState), field('M', message), Buffer.from([0])]));
}

/** Whether the password given is the one expected, in a time that does not depend on where they differ. */
function samePassword(given: Buffer, expected: string): boolean {
  const digest = (b: Buffer | string) => createHash('sha256').update(b).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

function typedMessage(type: number, body: Buffer): Buffer {
  const header = Buffer.alloc(5);
  header[0] = type;
  header.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([header, body]);
}
