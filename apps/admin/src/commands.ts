import { AppError } from '@pitwall/service-kit';
import { AUTH_CACHE_PREFIX, isRole, ROLES, type AuthStore } from '@pitwall/auth';

/** Wrong command, wrong arguments, bad configuration: exit code 2. */
export class UsageError extends Error {}

export interface CommandContext {
  store: AuthStore;
  print(line: string): void;
  warn(line: string): void;
  /** True when revocations also evict the shared Redis cache. */
  sharedCache: boolean;
}

interface Command {
  args: string;
  summary: string;
  min: number;
  max: number;
  /** Changes something (and may first apply the auth migrations); the others only read and change nothing. */
  writes: boolean;
  /** Checks the arguments before any connection is made. */
  validate?(args: string[]): void;
  run(ctx: CommandContext, args: string[]): Promise<void>;
}

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function guid(value: string, what: string): void {
  if (!GUID.test(value)) throw new UsageError(`${what} must be a GUID, got "${shown(value.slice(0, 80))}"`);
}

/** Control characters and line separators: a tab or a newline breaks the lists' columns, an escape reaches the terminal. */
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
const MAX_TEXT_CHARS = 200;

/** A name or a label as the lists can print it. */
function text(value: string, what: string): void {
  if (value.length > MAX_TEXT_CHARS) throw new UsageError(`${what} must be at most ${MAX_TEXT_CHARS} characters, got ${value.length}`);
  if (new RegExp(CONTROL.source).test(value)) throw new UsageError(`${what} must not hold control characters (a tab, a newline, an escape): the lists print it in tab-separated columns`);
}

/** What a list prints of a name or label stored before it was checked: its control characters as \\uXXXX. */
function shown(value: string): string {
  return value.replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export const COMMANDS: Record<string, Command> = {
  'create-account': {
    args: '<name>',
    summary: 'create an account',
    min: 1,
    max: 1,
    writes: true,
    validate: ([name]) => text(name, 'name'),
    async run({ store, print }, [name]) {
      const account = await store.createAccount(name);
      print(`Created account "${account.name}": ${account.id}`);
    },
  },
  'create-user': {
    args: '<name>',
    summary: 'create a user',
    min: 1,
    max: 1,
    writes: true,
    validate: ([name]) => text(name, 'name'),
    async run({ store, print }, [name]) {
      const user = await store.createUser(name);
      print(`Created user "${user.name}": ${user.id}`);
    },
  },
  'add-member': {
    args: '<accountId> <userId> <reader|editor|admin>',
    summary: "add a user to an account, or change the user's role there",
    min: 3,
    max: 3,
    writes: true,
    validate([accountId, userId, role]) {
      guid(accountId, 'accountId');
      guid(userId, 'userId');
      if (!isRole(role)) throw new UsageError(`role must be one of ${ROLES.join(', ')}, got "${role}"`);
    },
    async run({ store, print, warn, sharedCache }, [accountId, userId, role]) {
      const before = await store.addMembership(accountId, userId, role as (typeof ROLES)[number]);
      print(`User ${userId} is now ${role} of account ${accountId} (${before === null ? 'a new member' : before === role ? 'unchanged' : `was ${before}`})`);
      if (before !== null && before !== role && !sharedCache) warn(NOT_SHARED('the old role'));
    },
  },
  'remove-member': {
    args: '<accountId> <userId>',
    summary: 'remove a user from an account (at once in the gateways, with their REDIS_URL and REDIS_PREFIX)',
    min: 2,
    max: 2,
    writes: true,
    validate([accountId, userId]) {
      guid(accountId, 'accountId');
      guid(userId, 'userId');
    },
    async run({ store, print, warn, sharedCache }, [accountId, userId]) {
      if (!(await store.removeMembership(accountId, userId))) throw AppError.notFound(`User ${userId} is not a member of account ${accountId}`);
      print(`User ${userId} is no longer a member of account ${accountId}`);
      if (!sharedCache) warn(NOT_SHARED('the membership'));
    },
  },
  'create-key': {
    args: '<userId> [label]',
    summary: 'create an API key for a user (shown only once)',
    min: 1,
    max: 2,
    writes: true,
    validate: ([userId, label]) => {
      guid(userId, 'userId');
      if (label !== undefined) text(label, 'label');
    },
    async run({ store, print }, [userId, label]) {
      if (!(await store.getUser(userId))) throw AppError.notFound(`No user ${userId}`);
      const { keyId, apiKey } = await store.createApiKey(userId, label);
      print(`Key id:  ${keyId}`);
      print(`API key: ${apiKey}`);
      print('Store the API key now: only its hash is kept, it cannot be shown again.');
    },
  },
  'revoke-key': {
    args: '<keyId>',
    summary: 'revoke an API key',
    min: 1,
    max: 1,
    writes: true,
    validate: ([keyId]) => guid(keyId, 'keyId'),
    async run({ store, print, warn, sharedCache }, [keyId]) {
      if (await store.revokeApiKey(keyId)) print(`Revoked key ${keyId}`);
      // Revoking again evicts again: for a revocation whose eviction did not reach the gateways' Redis.
      else if (await store.evictRevokedApiKey(keyId)) print(`Key ${keyId} was already revoked${sharedCache ? '; evicted from the gateways\u2019 cache again' : ''}`);
      else throw AppError.notFound(`No API key ${keyId}`);
      if (!sharedCache) warn(NOT_SHARED('this key'));
    },
  },
  'list-accounts': {
    args: '',
    summary: 'list every account',
    min: 0,
    max: 0,
    writes: false,
    async run({ store, print }) {
      const accounts = await store.listAllAccounts();
      print('ID\tNAME\tCREATED');
      for (const a of accounts) print(`${a.id}\t${shown(a.name)}\t${a.createdAt.toISOString()}`);
    },
  },
  'list-keys': {
    args: '<userId>',
    summary: "list a user's API keys (ids and labels, never the keys)",
    min: 1,
    max: 1,
    writes: false,
    validate: ([userId]) => guid(userId, 'userId'),
    async run({ store, print }, [userId]) {
      const keys = await store.listApiKeys(userId);
      print('KEY ID\tLABEL\tCREATED\tSTATUS');
      for (const k of keys) print(`${k.keyId}\t${k.label === null || k.label === undefined ? '-' : shown(k.label)}\t${k.createdAt.toISOString()}\t${k.revokedAt ? `revoked ${k.revokedAt.toISOString()}` : 'active'}`);
    },
  },
};

const NOT_SHARED = (what: string): string =>
  `REDIS_URL is not set: gateways that cache in Redis accept ${what} until their entry expires (about a minute); an embedded gateway (npm start, in-memory cache) stops within 2 s.`;

export function usage(): string {
  const width = Math.max(...Object.entries(COMMANDS).map(([name, c]) => `${name} ${c.args}`.length));
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${`${name} ${c.args}`.padEnd(width)}  ${c.summary}`);
  return [
    'Usage: npm run admin -- <command> [arguments]   (a name beginning with - goes after --: create-account -- -Team-)',
    '',
    'Commands:',
    ...lines,
    '',
    'Environment:',
    '  DATABASE_URL  required: the Pitwall database (postgres://...)',
    '  REDIS_URL     the gateways\u2019 Redis: revocations and removed members then take effect in them at once',
    `  REDIS_PREFIX  the gateways\u2019 REDIS_PREFIX when they set one (default ${AUTH_CACHE_PREFIX}): with another prefix`,
    '                a revoked key or removed member keeps working in them until its cache entry expires (about a minute)',
    '  LOG_LEVEL     the CLI\u2019s own logs (default warn)',
  ].join('\n');
}

const HELP = ['--help', '-h'];

/**
 * `help` as the command, or `--help` / `-h` anywhere before a `--`: the usage is the answer (exit 0) and nothing runs
 * (`create-key <user> --help` once created a key labelled "--help").
 */
export function asksForHelp(argv: string[]): boolean {
  if (argv[0] === 'help') return true;
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).some((a) => HELP.includes(a));
}

/**
 * The command and its arguments, checked; throws UsageError. The CLI takes no options: an argument beginning with `-`
 * is refused rather than taken as a name or label (`create-account --dry-run` would create an account of that name),
 * unless it comes after a `--`.
 */
export function parseCommand(argv: string[]): { command: Command; args: string[] } {
  const end = argv.indexOf('--');
  const options = end < 0 ? argv : argv.slice(0, end);
  const [name, ...args] = end < 0 ? argv : [...argv.slice(0, end), ...argv.slice(end + 1)];
  if (!name) throw new UsageError('');
  const option = options.find((a) => a.startsWith('-') && a !== '-');
  if (option !== undefined) throw new UsageError(`Unknown option "${option}": the admin CLI takes none. A name or label beginning with - goes after --, e.g. npm run admin -- create-account -- -Team-`);
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) throw new UsageError(`Unknown command "${name}"`);
  if (args.length < command.min || args.length > command.max) throw new UsageError(`Usage: npm run admin -- ${name} ${command.args}`.trimEnd());
  command.validate?.(args);
  return { command, args };
}
