import type { EventHandler } from '@pitwall/bus';
import type { MathDefinitions } from '../../domain/math-definitions';

/** The entity events that change an account's math channels (created, updated, deleted). */
export const MATH_CHANNEL_EVENT_KEYS = ['entity.MathChannel.*'];

/** Thin entry point: a math channel changed, so this instance lists the account's definitions again on its next read. */
export function mathChannelEvents(definitions: MathDefinitions): EventHandler {
  return async (event) => {
    const accountId = (event.payload as { accountId?: unknown } | undefined)?.accountId;
    if (typeof accountId === 'string') definitions.invalidate(accountId);
  };
}
