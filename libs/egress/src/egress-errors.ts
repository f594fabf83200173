/** Why an outbound request did not get an answer the caller can use; each message is the service's own words. */
export class EgressError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/**
 * The address policy refused the destination: the URL names, or its host resolves to, an address of a refused range
 * (loopback, private, link-local...) that EGRESS_ALLOW does not name. Nothing was sent.
 */
export class AddressNotAllowed extends EgressError {
  constructor(
    /** The host as the URL gave it. */
    readonly host: string,
    /** The refused address and its range, e.g. `127.0.0.1 (loopback)`: for the operator's logs, not in the message. */
    readonly refused: string,
  ) {
    // A name's resolved address stays out of the message (kept in `refused`, for the logs): the message reaches the
    // account's users (a setup's status, a callback's last error, a 400), and an internal name's address is the
    // service's network, not theirs to map. An address the URL gave is the user's own words.
    super(`address not allowed: ${host === refused.split(' ')[0] ? refused : `${host} resolves to an address this service may not send requests to`}; EGRESS_ALLOW names the hosts and ranges that may be reached`);
  }
}

/** The answer's body is longer than EGRESS_MAX_RESPONSE_BYTES: the read stopped there and the connection was closed. */
export class ResponseTooLarge extends EgressError {
  constructor(
    /** The status code of the answer, which did arrive. */
    readonly status: number,
    readonly limitBytes: number,
  ) {
    super(`the answer (status ${status}) is longer than ${limitBytes} bytes (EGRESS_MAX_RESPONSE_BYTES); it was not read`);
  }
}

/** No connection within EGRESS_CONNECT_TIMEOUT_MS, or no whole answer within the request's total time limit. */
export class EgressTimeout extends EgressError {
  constructor(
    readonly phase: 'connect' | 'answer',
    readonly timeoutMs: number,
  ) {
    super(phase === 'connect' ? `no connection within ${timeoutMs} ms` : `no answer within ${timeoutMs} ms`);
  }
}

/** The connection failed for a network reason (refused, reset, unknown host): `code` names it (ECONNREFUSED, ENOTFOUND...). */
export class EgressUnreachable extends EgressError {
  constructor(
    readonly code: string,
    cause: unknown,
  ) {
    super(code, { cause });
  }
}

/**
 * The request cannot be sent as given: the URL is not an absolute http(s) URL, or the HTTP client refused an argument
 * (a header or method it cannot send). Nothing was sent, and sending it again cannot help.
 */
export class EgressInvalidRequest extends EgressError {}
