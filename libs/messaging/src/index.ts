// Transactional messaging for the services that own a schema: the outbox (messages written with the write,
// published after its commit, left-overs retried). The inbox (commands recorded with their replies) joins it here.
export {
  createOutbox,
  outboxMigration,
  type Outbox,
  type OutboxMessage,
  type OutboxOptions,
  type OutboxTiming,
  type PublishAfterCommit,
  type PublishMessage,
  type Queryable,
} from './outbox';
