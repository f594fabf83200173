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
  /** Checks the arguments before any connection is made. */
  validate?(args: string[]): void;
  run(ctx: CommandContext, args: string[]): Promise<void>;
}

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function guid(value: string, what: string): void {
  if (!GUID.test(value)) throw new UsageError(`${what} must be a GUID, got "${value}"`);
}

export const COMMANDS: Record<string, Command> = {
  'create-account': {
    args: '<name>',
    summary: 'create an account',
    min: 1,
    max: 1,
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
    validate([accountId, userId, role]) {
      guid(accountId, 'accountId');
      guid(userId, 'userId');
      if (!isRole(role)) throw new UsageError(`role must be one of ${ROLES.join(', ')}, got "${role}"`);
    },
    async run({ store, print }, [accountId, userId, role]) {
      await store.addMembership(accountId, userId, role as (typeof ROLES)[number]);
      print(`User ${userId} is now ${role} of account ${accountId}`);
    },
  },
  'remove-member': {
    args: '<accountId> <userId>',
    summary: 'remove a user from an account (at once in the gateways, with their REDIS_URL and REDIS_PREFIX)',
    min: 2,
    max: 2,
    validate([accountId, userId]) {
      guid(accountId, 'accountId');
      guid(userId, 'userId');
    },
    async run({ store, print }, [accountId, userId]) {
      if (!(await store.removeMembership(accountId, userId))) throw AppError.notFound(`User ${userId} is not a member of account ${accountId}`);
      print(`User ${userId} is no longer a member of account ${accountId}`);
    },
  },
  'create-key': {
    args: '<userId> [label]',
    summary: 'create an API key for a user (shown only once)',
    min: 1,
    max: 2,
    validate: ([userId]) => guid(userId, 'userId'),
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
    validate: ([keyId]) => guid(keyId, 'keyId'),
    async run({ store, print, warn, sharedCache }, [keyId]) {
      if (!(await store.revokeApiKey(keyId))) throw AppError.notFound(`No live API key ${keyId}`);
      print(`Revoked key ${keyId}`);
      if (!sharedCache) warn('REDIS_URL is not set: gateways that cache keys in Redis accept this key until their entry expires (about a minute); an embedded gateway (npm start, in-memory cache) refuses it within 2 s.');
    },
  },
  'list-accounts': {
    args: '',
    summary: 'list every account',
    min: 0,
    max: 0,
    async run({ store, print }) {
      const accounts = await store.listAllAccounts();
      print('ID\tNAME\tCREATED');
      for (const a of accounts) print(`${a.id}\t${a.name}\t${a.createdAt.toISOString()}`);
    },
  },
  'list-keys': {
    args: '<userId>',
    summary: "list a user's API keys (ids and labels, never the keys)",
    min: 1,
    max: 1,
    validate: ([userId]) => guid(userId, 'userId'),
    async run({ store, print }, [userId]) {
      const keys = await store.listApiKeys(userId);
      print('KEY ID\tLABEL\tCREATED\tSTATUS');
      for (const k of keys) print(`${k.keyId}\t${k.label ?? '-'}\t${k.createdAt.toISOString()}\t${k.revokedAt ? `revoked ${k.revokedAt.toISOString()}` : 'active'}`);
    },
  },
};

export function usage(): string {
  const width = Math.max(...Object.entries(COMMANDS).map(([name, c]) => `${name} ${c.args}`.length));
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${`${name} ${c.args}`.padEnd(width)}  ${c.summary}`);
  return [
    'Usage: npm run admin -- <command> [arguments]',
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

/** `help`, `--help` or `-h`: the usage is the answer (exit 0), not a usage error. */
export function asksForHelp(argv: string[]): boolean {
  return ['help', '--help', '-h'].includes(argv[0] ?? '');
}

/** The command and its arguments, checked; throws UsageError. */
export function parseCommand(argv: string[]): { command: Command; args: string[] } {
  const [name, ...args] = argv;
  if (!name) throw new UsageError('');
  const command = COMMANDS[name];
  if (!command) throw new UsageError(`Unknown command "${name}"`);
  if (args.length < command.min || args.length > command.max) throw new UsageError(`Usage: npm run admin -- ${name} ${command.args}`.trimEnd());
  command.validate?.(args);
  return { command, args };
}
