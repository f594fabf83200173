import { createHash } from 'node:crypto';

/**
 * Answers the asker may hold already. A bulk answer made from content-addressed bytes (a channel read of a dataset's
 * files, whose content key is their hashes) carries a tag: the same tag is the same bytes in the same media type, for
 * whoever may read them. The gateway keeps recent large answers by request with their tag and names it in
 * `REQUEST_HELD_ANSWER`; the service, after its permission check, replies `REPLY_ANSWER_HELD` instead of the bytes
 * when the answer would carry that tag. So a warm read is one bus round trip and the gateway's own write: its body
 * takes no hop (docs/architecture.md).
 */
export const REQUEST_HELD_ANSWER = 'heldAnswer';
/** Reply header: the tag of the answer the reply carries inline or by claim. */
export const REPLY_ANSWER_TAG = 'answerTag';
/** Reply header: the answer is the one the request said it holds (its tag is the value); the reply has no bytes. */
export const REPLY_ANSWER_HELD = 'answerHeld';

/**
 * The tag of an answer made from `parts` (everything that shapes its bytes): 128 bits of their SHA-256, each part
 * ended by a NUL. The caches of answers key them by the same hash of what identifies them (the request, the read).
 */
export function answerTag(...parts: readonly string[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part).update('\u0000');
  return hash.digest('base64url').slice(0, 22);
}
