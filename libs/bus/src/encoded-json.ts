import { REPLY_CLAIM, type Claim } from './claims/claim';

// A payload already encoded as JSON, and the JSON encoding every payload crosses the bus in: the value a handler
// returns and `Bus.requestEncoded` answers (types.ts), and what the transports' wire code sends (wire.ts).

/** Reply header naming the media type of a reply body that is not JSON (a binary channel read). */
export const REPLY_CONTENT_TYPE = 'contentType';

/**
 * A payload already encoded as JSON text, with string headers beside it. A handler that returns one has its bytes
 * sent as they are; `Bus.requestEncoded` hands them to the caller unparsed, so a large document crosses a service
 * without being parsed and serialised again on the way.
 */
export class EncodedJson {
  constructor(
    readonly json: Buffer,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {}

  static of(value: unknown, headers?: Record<string, string>): EncodedJson {
    return new EncodedJson(encodeJson(value), headers);
  }

  /**
   * Bytes that are not JSON (a binary channel body), with their media type in a reply header: they cross the bus
   * and reach the gateway as they are, on both transports.
   */
  static binary(bytes: Uint8Array, contentType: string, headers?: Record<string, string>): EncodedJson {
    const body = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    return new EncodedJson(body, { ...headers, [REPLY_CONTENT_TYPE]: contentType });
  }

  /** The media type of a binary body; undefined for JSON. */
  get contentType(): string | undefined {
    return this.headers[REPLY_CONTENT_TYPE];
  }

  /** The claim of a reply that carries one instead of its answer (claims/claim-desk.ts); undefined otherwise. */
  get claim(): Claim | undefined {
    return this.headers[REPLY_CLAIM] ? this.parse<Claim>() : undefined;
  }

  parse<T = unknown>(): T {
    return decodeJson(this.json) as T;
  }
}

/** Payloads cross the bus as JSON on both transports, so they behave the same everywhere. */
export function encodeJson(value: unknown): Buffer {
  return Buffer.from(JSON.stringify(value === undefined ? null : value));
}

export function decodeJson(content: Buffer): unknown {
  return JSON.parse(content.toString('utf8'));
}
