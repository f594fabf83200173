import { lookup as dnsLookup, Resolver } from 'node:dns/promises';
import { STATUS_CODES } from 'node:http';
import { isIP } from 'node:net';
import { Agent, buildConnector, request } from 'undici';
import { AddressPolicy } from './address-policy';
import { AddressNotAllowed, EgressError, EgressInvalidRequest, EgressTimeout, EgressUnreachable, ResponseTooLarge } from './egress-errors';

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to its addresses; the system resolver unless a test maps names itself. */
export type Lookup = (hostname: string, signal?: AbortSignal) => Promise<ResolvedAddress[]>;

/** Host-file lookups (the system's getaddrinfo, on libuv's thread pool) in flight at once, stuck ones included. */
const MAX_HOSTS_LOOKUPS = 2;
let hostsLookups = 0;

/**
 * The system's resolution of a name: its DNS answers (A and AAAA) through c-ares, which runs on the event loop, not on
 * libuv's four-thread pool. getaddrinfo held a pool thread until the system resolver gave up (5 to 10 s and more)
 * after the request's own timeout had, so a name whose servers never answer, asked for a few times a second (a
 * profile's BaseUrl, a callback), took every thread: every account's outbound calls, and in `npm start` file reads,
 * waited behind it. Abandoned at the timeout, a query is cancelled. A name DNS answered for without an address
 * (ENOTFOUND, ENODATA: `localhost`, a name of /etc/hosts, one only a search domain completes) is looked up by the
 * system then, at most MAX_HOSTS_LOOKUPS at once; a name whose servers did not answer (ETIMEOUT) is not.
 */
export function systemLookupWith(options: { servers?: string[] } = {}): Lookup {
  return async (hostname, signal?: AbortSignal) => {
    const resolver = new Resolver({ tries: 2 });
    if (options.servers) resolver.setServers(options.servers);
    const cancel = () => resolver.cancel();
    signal?.addEventListener('abort', cancel, { once: true });
    try {
      const [v4, v6] = await Promise.allSettled([resolver.resolve4(hostname), resolver.resolve6(hostname)]);
      const found = [...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 })) : []), ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 })) : [])];
      if (found.length > 0) return found;
      const failures = [v4, v6].flatMap((r) => (r.status === 'rejected' ? [r.reason as { code?: string }] : []));
      // A server that did not answer is not asked again through the thread pool: that is the wait this avoids.
      if (signal?.aborted || failures.some((f) => f.code === 'ETIMEOUT' || f.code === 'ECANCELLED')) throw failures[0] ?? Object.assign(new Error('no address'), { code: 'ETIMEOUT' });
    } finally {
      signal?.removeEventListener('abort', cancel);
    }
    if (hostsLookups >= MAX_HOSTS_LOOKUPS) throw Object.assign(new Error('too many host lookups at once'), { code: 'EAI_AGAIN' });
    hostsLookups++;
    try {
      return await dnsLookup(hostname, { all: true, verbatim: true });
    } finally {
      hostsLookups--;
    }
  };
}

export const systemLookup: Lookup = systemLookupWith();

export interface EgressSettings {
  /** EGRESS_ALLOW: hosts, addresses and CIDR ranges (each with an optional port) outside public unicast that may be reached. */
  allow: string;
  /** EGRESS_MAX_RESPONSE_BYTES: bytes of an answer's body read at most; past them the connection is closed. */
  maxResponseBytes: number;
  /** EGRESS_CONNECT_TIMEOUT_MS: time to resolve the host and connect (TLS included). */
  connectTimeoutMs: number;
  /** EGRESS_TIMEOUT_MS: the longest any one request may take, answer read included; a caller may ask for less. */
  timeoutMs: number;
  lookup?: Lookup;
}

export interface EgressRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** This request's total time limit; capped by EGRESS_TIMEOUT_MS. */
  timeoutMs?: number;
}

export interface EgressResponse {
  status: number;
  /** The standard reason phrase of the status (ours, not the one the server sent). */
  statusText: string;
  headers: Record<string, string | string[] | undefined>;
  /** The whole body: never more than EGRESS_MAX_RESPONSE_BYTES. */
  body: Buffer;
}

const defaultPort = (protocol: string): number => (protocol === 'https:' ? 443 : 80);

/**
 * Outbound HTTP to addresses users typed (simulation systems, webhook receivers). The address is checked when the
 * connection is made, on the address the name resolved to, and the connection goes to that very address, so a name
 * that resolves elsewhere a second time (DNS rebinding) cannot pass. Redirects are answers (never followed), an answer
 * is read up to EGRESS_MAX_RESPONSE_BYTES, and connecting and the whole request each have a time limit.
 */
export class Egress {
  readonly policy: AddressPolicy;
  private readonly agent: Agent;
  private readonly lookup: Lookup;

  constructor(private readonly settings: EgressSettings) {
    this.policy = new AddressPolicy(settings.allow);
    this.lookup = settings.lookup ?? systemLookup;
    // HTTP/1.1 only: a body cut short then closes the connection itself, not one stream of a shared one.
    const connector = buildConnector({ timeout: settings.connectTimeoutMs, allowH2: false });
    this.agent = new Agent({
      connect: (options, callback) => {
        // TLS still verifies the certificate for the name the URL gave (undici takes the server name from `host`).
        this.destination(options.hostname, Number(options.port) || defaultPort(options.protocol)).then(
          (address) => connector({ ...options, hostname: address }, callback),
          (err: Error) => callback(err, null),
        );
      },
      headersTimeout: settings.timeoutMs,
      bodyTimeout: settings.timeoutMs,
    });
  }

  /** Sends one request and reads its answer (any status, 3xx included) whole, within the limits. */
  async request(url: string | URL, init: EgressRequest = {}): Promise<EgressResponse> {
    const timeoutMs = Math.min(init.timeoutMs ?? this.settings.timeoutMs, this.settings.timeoutMs);
    const target = httpUrl(url);
    const signal = AbortSignal.timeout(timeoutMs);
    let answer: Awaited<ReturnType<typeof request>>;
    try {
      answer = await request(target, { dispatcher: this.agent, method: (init.method ?? 'GET') as 'GET', headers: init.headers, body: init.body, signal });
    } catch (err) {
      throw this.failure(err, signal, timeoutMs);
    }
    const limit = this.settings.maxResponseBytes;
    const tooLarge = () => {
      // Destroying the body aborts the request: undici closes the connection, and the sender sees it closed.
      answer.body.destroy();
      return new ResponseTooLarge(answer.statusCode, limit);
    };
    if (Number(answer.headers['content-length']) > limit) throw tooLarge();
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of answer.body as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > limit) throw tooLarge();
        chunks.push(chunk);
      }
    } catch (err) {
      if (err instanceof ResponseTooLarge) throw err;
      throw this.failure(err, signal, timeoutMs);
    }
    return { status: answer.statusCode, statusText: STATUS_CODES[answer.statusCode] ?? '', headers: answer.headers, body: Buffer.concat(chunks) };
  }

  /**
   * Checks a destination before it is stored (a callback's URL): AddressNotAllowed when the URL names a refused
   * address or its host resolves to one. A host that does not resolve now passes: its deliveries will say so.
   */
  async checkDestination(url: string | URL): Promise<void> {
    const parsed = new URL(url);
    const host = unbracketed(parsed.hostname);
    const port = Number(parsed.port) || defaultPort(parsed.protocol);
    if (isIP(host)) {
      const refusal = this.policy.refusal(host, port, host);
      if (refusal) throw new AddressNotAllowed(host, refusal);
      return;
    }
    let addresses: ResolvedAddress[];
    try {
      addresses = await this.resolve(host);
    } catch {
      return;
    }
    for (const { address } of addresses) {
      const refusal = this.policy.refusal(host, port, address);
      if (refusal) throw new AddressNotAllowed(host, refusal);
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  /** The address a connection goes to: the host itself when it is an address, else the first allowed one it resolves to. */
  private async destination(hostname: string, port: number): Promise<string> {
    const host = unbracketed(hostname);
    if (isIP(host)) {
      const refusal = this.policy.refusal(host, port, host);
      if (refusal) throw new AddressNotAllowed(host, refusal);
      return host;
    }
    let addresses: ResolvedAddress[];
    try {
      addresses = await this.resolve(host);
    } catch (err) {
      if (err instanceof EgressError) throw err;
      throw new EgressUnreachable((err as { code?: string }).code ?? 'ENOTFOUND', err);
    }
    let refused: string | null = null;
    for (const { address } of addresses) {
      const refusal = this.policy.refusal(host, port, address);
      if (!refusal) return address;
      refused ??= refusal;
    }
    if (refused) throw new AddressNotAllowed(host, refused);
    throw new EgressUnreachable('ENOTFOUND', null);
  }

  private async resolve(host: string): Promise<ResolvedAddress[]> {
    let timer: NodeJS.Timeout | undefined;
    // At the timeout the lookup is told to stop (the system lookup cancels its queries), not only abandoned.
    const abandon = new AbortController();
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        abandon.abort();
        reject(new EgressTimeout('connect', this.settings.connectTimeoutMs));
      }, this.settings.connectTimeoutMs);
    });
    try {
      return await Promise.race([this.lookup(host, abandon.signal), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  private failure(err: unknown, signal: AbortSignal, timeoutMs: number): EgressError {
    if (err instanceof EgressError) return err;
    const code = (err as { code?: string }).code;
    // undici refusing what it was given (a header value, a method): nothing left, and nothing a retry would change.
    if (code === 'UND_ERR_INVALID_ARG' || code === 'ERR_INVALID_ARG_VALUE' || code === 'ERR_INVALID_ARG_TYPE' || code === 'ERR_INVALID_URL') return new EgressInvalidRequest(`the request could not be sent: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    if (code === 'UND_ERR_CONNECT_TIMEOUT') return new EgressTimeout('connect', this.settings.connectTimeoutMs);
    if (signal.aborted || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') return new EgressTimeout('answer', timeoutMs);
    const cause = (err as { cause?: { code?: string } }).cause;
    return new EgressUnreachable(cause?.code ?? code ?? (err instanceof Error ? err.message : String(err)), err);
  }
}

/** The URL as an absolute http(s) URL, or EgressInvalidRequest: other schemes (file:, unix:, ftp:) are never requested. */
function httpUrl(url: string | URL): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new EgressInvalidRequest('the URL is not an absolute URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new EgressInvalidRequest(`the URL's scheme ${parsed.protocol} is not http: or https:`);
  if (!parsed.hostname) throw new EgressInvalidRequest('the URL names no host');
  return parsed;
}

const unbracketed = (hostname: string): string => (hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname);
