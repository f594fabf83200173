import type { Pool } from 'pg';
import type { BusHeaders } from '@pitwall/bus';
import type { Queryable } from '@pitwall/db';
import { checkDeadline, commandOf, KEY_REUSED_TYPE, type Inbox, type Outbox, type OutboxMessage, type ReplyCodec } from '@pitwall/messaging';
import { AppError } from '@pitwall/service-kit';
import { SIMULATION_SCHEMA } from '../data-access/migrations';

/** What a write needs of the bus request it handles: its command headers and its deadline. */
export interface WriteRequest {
  headers: BusHeaders;
  deadline?: number;
}

export interface WriteOptions {
  /**
   * Check the request's deadline just before the commit (default). A Trigger does not: the setups already carry
   * `Requested` through the entity store by then, so rolling back its jobs would strand them.
   */
  checkDeadline?: boolean;
}

/**
 * The simulation-service's one write path: a transaction of its schema in which the command is recorded in the inbox
 * with its reply (a redelivered or repeated command answers the recorded reply and runs nothing), the write runs, and
 * what it adds to the outbox is published after the commit.
 */
export class SimulationWrites {
  constructor(
    private readonly pool: Pool,
    private readonly outbox: Outbox,
    private readonly inbox: Inbox,
  ) {}

  /**
   * The reply recorded for the request's command, if it already took effect (a 422 when its id came with another
   * request). For a write that must call other services before its transaction (a Trigger writes `Requested` through
   * the entity store): it looks first, so a repeat does nothing, and holds no transaction open across those calls
   * (the embedded database has a single session). A repeat that arrives while the first is still running finds the
   * first's reply in `once`.
   */
  async recorded<T>(request: WriteRequest, accountId: string, codec: ReplyCodec<T>): Promise<T | undefined> {
    const command = commandOf(request.headers as Record<string, string | undefined>, accountId);
    if (!command) return undefined;
    const { rows } = await this.pool.query<{ request_hash: string; reply_body: Buffer | null; reply_headers: Record<string, string> }>(
      `SELECT request_hash, reply_body, reply_headers FROM ${SIMULATION_SCHEMA}.inbox WHERE scope = $1 AND command_id = $2`,
      [command.scope, command.id],
    );
    const row = rows[0];
    if (!row) return undefined;
    if (row.request_hash !== command.requestHash) throw new AppError(422, 'This Idempotency-Key was already used with another request; send a new key for a new request', { type: KEY_REUSED_TYPE });
    return codec.decode({ body: row.reply_body, headers: row.reply_headers });
  }

  once<T>(request: WriteRequest, accountId: string, codec: ReplyCodec<T>, write: (client: Queryable, add: (messages: readonly OutboxMessage[]) => Promise<void>) => Promise<T>, options: WriteOptions = {}): Promise<T> {
    const command = commandOf(request.headers as Record<string, string | undefined>, accountId);
    return this.outbox.transaction((client, add) =>
      this.inbox.once(client, command, codec, async () => {
        const result = await write(client, add);
        if (options.checkDeadline !== false) checkDeadline(request.deadline);
        return result;
      }),
    );
  }
}

/** A JSON result recorded as its body. */
export const jsonCodec = <T>(): ReplyCodec<T> => ({
  encode: (result) => ({ body: Buffer.from(JSON.stringify(result)), headers: {} }),
  decode: (reply) => JSON.parse((reply.body as Buffer).toString('utf8')) as T,
});
