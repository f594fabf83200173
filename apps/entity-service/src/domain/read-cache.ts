import { createHash } from 'node:crypto';

/** A read's answer as the gateway sends it: the JSON bytes, and for one entity its modification time and id. */
export interface RenderedReply {
  json: Buffer;
  lastModifiedTime?: string;
  entityId?: string;
}

interface Entry {
  accountId: string;
  reply: RenderedReply;
  size: number;
}

/**
 * Rendered read replies (get, list, search), each kept under the version of its account that it was rendered at.
 * Every committed write of an account bumps that version in its own transaction (`entity.account_versions`), and
 * a read first reads the version, then looks up its reply under it: a reply rendered before a write can never be
 * served once that write has committed, on this instance or any other. When an account's version moves on, its
 * older replies are dropped; past `maxBytes`, the least recently used replies are. `maxBytes` 0 turns it off.
 */
export class ReadCache {
  /** Map order is use order: the first entry is the least recently used. */
  private readonly entries = new Map<string, Entry>();
  /** The newest version seen per account, and the keys cached under it. */
  private readonly accounts = new Map<string, { version: bigint; keys: Set<string> }>();
  private bytes = 0;
  private hits = 0;
  private misses = 0;
  /**
   * Scoped reads found to render entities outside their scope (a run sheet whose projection follows a reference into
   * another run): they are kept under the account instead. Forgetting one costs a miss, never a stale answer (such a
   * read is never kept under its scope), so the set is simply emptied when it grows large.
   */
  private readonly unscoped = new Set<string>();

  constructor(private readonly maxBytes: number) {}

  get enabled(): boolean {
    return this.maxBytes > 0;
  }

  get(accountId: string, version: string, key: string): RenderedReply | undefined {
    if (!this.enabled) return undefined;
    this.dropOlderThan(accountId, BigInt(version));
    const id = entryKey(accountId, version, key);
    const entry = this.entries.get(id);
    if (!entry) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    this.entries.delete(id);
    this.entries.set(id, entry);
    return entry.reply;
  }

  set(accountId: string, version: string, key: string, reply: RenderedReply): void {
    if (!this.enabled) return;
    const v = BigInt(version);
    const id = entryKey(accountId, version, key);
    this.remove(id);
    this.dropOlderThan(accountId, v);
    const size = reply.json.length + key.length;
    // A reply rendered at a version older than one already seen is out of date for the next reader: not kept.
    // Nor is one so large it would push out most of the rest.
    const account = this.accounts.get(accountId) ?? { version: v, keys: new Set<string>() };
    if (account.version > v || size > this.maxBytes / 4) return;
    this.accounts.set(accountId, account);
    this.entries.set(id, { accountId, reply, size });
    account.keys.add(id);
    this.bytes += size;
    for (const oldest of this.entries.keys()) {
      if (this.bytes <= this.maxBytes) break;
      this.remove(oldest);
    }
  }

  isUnscoped(accountId: string, key: string): boolean {
    return this.unscoped.size > 0 && this.unscoped.has(unscopedKey(accountId, key));
  }

  markUnscoped(accountId: string, key: string): void {
    if (this.unscoped.size >= MAX_UNSCOPED) this.unscoped.clear();
    this.unscoped.add(unscopedKey(accountId, key));
  }

  stats(): { entries: number; bytes: number; hits: number; misses: number } {
    return { entries: this.entries.size, bytes: this.bytes, hits: this.hits, misses: this.misses };
  }

  /** Once a read has seen a newer version of the account, nobody will ask for the replies cached under older ones. */
  private dropOlderThan(accountId: string, version: bigint): void {
    const account = this.accounts.get(accountId);
    if (account && account.version < version) for (const id of [...account.keys]) this.remove(id);
  }

  private remove(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    this.bytes -= entry.size;
    const account = this.accounts.get(entry.accountId);
    account?.keys.delete(id);
    if (account?.keys.size === 0) this.accounts.delete(entry.accountId);
  }
}

const MAX_UNSCOPED = 10_000;

/** A read's key as a digest: the set holds 10,000 of them in under 1 MB whatever the projections' length. */
function unscopedKey(accountId: string, key: string): string {
  return createHash('sha256').update(accountId).update('\u0000').update(key).digest('base64url');
}

function entryKey(accountId: string, version: string, key: string): string {
  return `${accountId}\u0000${version}\u0000${key}`;
}
