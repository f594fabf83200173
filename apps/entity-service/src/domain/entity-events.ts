import type { OutboxMessage } from '@pitwall/messaging';
import type { EntityChangedEvent, EntityTypeDef } from '@pitwall/contracts';
import type { EntityRow } from '../data-access/entity-row';
import type { ParameterValue } from './parameters';

/** The event of one change to one entity (docs/events.md). */
export function entityChanged(action: EntityChangedEvent['action'], row: EntityRow, type: EntityTypeDef, changedParameters: string[]): EntityChangedEvent {
  const parentIds: Record<string, string> = {};
  if (row.parent_id && type.parents[0]) parentIds[type.parents[0].key] = row.parent_id;
  if (row.parent2_id && type.parents[1]) parentIds[type.parents[1].key] = row.parent2_id;
  return { action, accountId: row.account_id, entityType: type.name, entityId: row.id, parentIds, changedParameters, occurredAt: new Date().toISOString() };
}

/** Parameters whose value differs between two versions of an entity. */
export function changedNames(before: Record<string, ParameterValue>, after: Record<string, ParameterValue>): string[] {
  return [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((k) => before[k] !== after[k]);
}

/** An event as the outbox publishes it on the entity events exchange: routing key `entity.<Type>.<action>`. */
export function entityEventMessage(event: EntityChangedEvent, headers: Record<string, string>): OutboxMessage<EntityChangedEvent> {
  return { routingKey: `entity.${event.entityType}.${event.action}`, payload: event, headers };
}
