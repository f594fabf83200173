// Transactional messaging for the services that own a schema: the outbox (messages written with the write,
// published after its commit, left-overs retried) and the inbox (commands recorded with their replies in the write's
// transaction, so a redelivered or repeated command takes effect once).
export {
  MESSAGE_ID_HEADER,
  createOutbox,
  outboxMigration,
  type Outbox,
  type OutboxMessage,
  type OutboxOptions,
  type OutboxTiming,
  type PublishAfterCommit,
  type PublishMessage,
} from './outbox';
export {
  COMMAND_HEADERS,
  DEADLINE_PASSED_TYPE,
  InboxRaceError,
  KEY_REUSED_TYPE,
  checkDeadline,
  commandKey,
  commandOf,
  createInbox,
  inboxMigration,
  recordedReply,
  type Inbox,
  type InboxCommand,
  type InboxOptions,
  type RecordedCommand,
  type RecordedReply,
  type ReplyCodec,
} from './inbox';
