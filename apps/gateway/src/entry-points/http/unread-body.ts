import type { Socket } from 'node:net';
import type { Request, Response } from 'express';
import { LINGER_MS, closeLingering } from '@pitwall/service-kit';

/**
 * An answer given before the request's body was read (a refused upload): it says `Connection: close`, so the client
 * stops sending (RFC 9112 §9.3), and the connection is torn down as RFC 9112 §9.6 has it: our side is closed once the
 * answer is written, and what the client still sends is read and dropped until it closes its side or `lingerMs`
 * pass. Closed at once instead, the client's next bytes would meet a reset, which can discard the answer before the
 * client has read it (a client sending `Expect: 100-continue` is the usual case).
 */
export function closeAfterAnswer(req: Request, res: Response, lingerMs = LINGER_MS): void {
  res.setHeader('Connection', 'close');
  const socket = req.socket as Socket & { destroySoon?: () => void };
  // Node's HTTP server calls destroySoon once the last answer of a closing connection is written (and dumps the body).
  socket.destroySoon = function lingeringClose(this: Socket) {
    // Node dumps a body nobody began to read; one read in part (an upload past its cap) is drained here.
    req.resume();
    closeLingering(this, lingerMs);
  };
}
