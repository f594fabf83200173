// A stand-in for the external vehicle-simulation system, for tests, benchmarks and the embedded default: the same
// HTTP API the simulation-service's adapter speaks (token, create study, poll status, fetch results), in memory.
//
// Switches: `scenario` for every study ('success', 'start-failure', 'fail', 'slow', 'unavailable'), overridden per
// study by a parameter value `standin:<scenario>` among the setup parameters sent with it; `runningPolls` status
// reads that answer `running` before `completed` (0 answers at once); `transientFailures` next calls answered 503.
// A create carrying an `Idempotency-Key` header is answered the study first created with that key (no second one).
//
// Everything it keeps is bounded (it runs inside `npm start`'s one process): the last KEPT studies, tokens, calls and
// logins, and a body of at most MAX_BODY_BYTES (413 past it). `credentials`, when given, are the only ones its token
// endpoint takes (`npm start` makes them afresh at each start for the demo account's connection alone).
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type StandInScenario = 'success' | 'start-failure' | 'fail' | 'slow' | 'unavailable';

export interface StandInOptions {
  scenario?: StandInScenario;
  runningPolls?: number;
  transientFailures?: number;
  /** Status reads a `slow` study answers `running`. */
  slowPolls?: number;
  /** Called once the answer to a create that made a study has been sent (a fault test kills its caller then). */
  onStudyCreated?: (study: Study) => void;
  /** The only credentials the token endpoint takes; any four non-empty ones without it. */
  credentials?: { clientId: string; clientSecret: string; username: string; password: string };
}

/** Studies, tokens, calls and logins kept, the most recent (the oldest go first). */
export const KEPT = 1000;
/** The largest request body it reads: past it, a 413 and nothing kept. */
export const MAX_BODY_BYTES = 256 * 1024;

export interface Study {
  id: string;
  /** The create's Idempotency-Key, if it sent one. */
  idempotencyKey: string | null;
  name: string;
  parameters: Record<string, unknown>;
  scenario: StandInScenario;
  polls: number;
}

export interface StandInCall {
  method: string;
  path: string;
  status: number;
}

export interface SimulationStandIn {
  url: string;
  options: Required<Omit<StandInOptions, 'onStudyCreated' | 'credentials'>> & Pick<StandInOptions, 'onStudyCreated' | 'credentials'>;
  calls: StandInCall[];
  studies: Map<string, Study>;
  /** Credentials the token endpoint accepted, by client id. */
  logins: string[];
  stop(): Promise<void>;
}

const SCENARIOS: readonly StandInScenario[] = ['success', 'start-failure', 'fail', 'slow', 'unavailable'];

function scenarioOf(parameters: Record<string, unknown>, fallback: StandInScenario): StandInScenario {
  for (const value of Object.values(parameters)) {
    const m = typeof value === 'string' ? /standin:([\w-]+)/.exec(value) : null;
    if (m && SCENARIOS.includes(m[1] as StandInScenario)) return m[1] as StandInScenario;
  }
  return fallback;
}

/** Deterministic results from a study's parameters, so a test can compare them. */
export function standInResults(study: { name: string }): Record<string, number> {
  let hash = 0;
  for (const c of study.name) hash = (hash * 31 + c.charCodeAt(0)) % 100000;
  return { LapTime: 90 + (hash % 1000) / 1000, TopSpeed: 300 + (hash % 50) };
}

export async function startSimulationStandIn(options: StandInOptions = {}, port = 0): Promise<SimulationStandIn> {
  const state: SimulationStandIn = {
    url: '',
    options: { scenario: 'success', runningPolls: 1, transientFailures: 0, slowPolls: 20, ...options },
    calls: [],
    studies: new Map(),
    logins: [],
    stop: async () => undefined,
  };
  const tokens = new Set<string>();
  /** Study ids by the Idempotency-Key that created them. */
  const byKey = new Map<string, string>();
  const keepLast = <T>(list: T[], item: T) => {
    list.push(item);
    if (list.length > KEPT) list.splice(0, list.length - KEPT);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const send = (status: number, body: unknown) => {
      keepLast(state.calls, { method: req.method ?? '', path: url.pathname, status });
      res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
    };
    const chunks: Buffer[] = [];
    let size = 0;
    // Past the cap the rest is read and dropped (nothing kept), then refused.
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk as Buffer);
    }
    if (size > MAX_BODY_BYTES) return send(413, { message: `the body is larger than ${MAX_BODY_BYTES} bytes` });
    let body: Record<string, unknown> = {};
    try {
      const parsed: unknown = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {};
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return send(400, { message: 'the body is not a JSON object' });
      body = parsed as Record<string, unknown>;
    } catch {
      return send(400, { message: 'body is not JSON' });
    }
    if (state.options.transientFailures > 0) {
      state.options.transientFailures--;
      return send(503, { message: 'temporarily unavailable' });
    }
    if (req.method === 'POST' && url.pathname === '/oauth/token') {
      const missing = ['client_id', 'client_secret', 'username', 'password'].filter((k) => typeof body[k] !== 'string' || body[k] === '');
      const only = state.options.credentials;
      const others = only !== undefined && (body['client_id'] !== only.clientId || body['client_secret'] !== only.clientSecret || body['username'] !== only.username || body['password'] !== only.password);
      if (missing.length || others || body['password'] === 'wrong') return send(401, { message: `invalid credentials${missing.length ? `: missing ${missing.join(', ')}` : ''}` });
      const token = randomUUID();
      tokens.add(token);
      if (tokens.size > KEPT) tokens.delete(tokens.values().next().value as string);
      keepLast(state.logins, String(body['client_id']));
      return send(200, { access_token: token, token_type: 'Bearer', expires_in: 3600 });
    }
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!token || !tokens.has(token)) return send(401, { message: 'token missing or expired' });
    const match = /^\/studies(?:\/([^/]+)(\/results)?)?$/.exec(url.pathname);
    if (!match) return send(404, { message: `no route ${req.method} ${url.pathname}` });
    const [, id, results] = match;
    if (req.method === 'POST' && !id) {
      const parameters = (typeof body['parameters'] === 'object' && body['parameters'] !== null ? body['parameters'] : {}) as Record<string, unknown>;
      const scenario = scenarioOf(parameters, state.options.scenario);
      if (scenario === 'unavailable') return send(503, { message: 'the solver farm is down' });
      if (scenario === 'start-failure') return send(422, { message: 'The setup is missing a valid vehicle model' });
      const key = typeof req.headers['idempotency-key'] === 'string' ? req.headers['idempotency-key'] : null;
      const earlier = key === null ? undefined : byKey.get(key);
      if (earlier !== undefined) return send(201, { studyId: earlier });
      const study: Study = { id: `st-${randomUUID()}`, idempotencyKey: key, name: String(body['name'] ?? ''), parameters, scenario, polls: 0 };
      state.studies.set(study.id, study);
      if (key !== null) byKey.set(key, study.id);
      if (state.studies.size > KEPT) {
        const oldest = state.studies.values().next().value as Study;
        state.studies.delete(oldest.id);
        if (oldest.idempotencyKey !== null) byKey.delete(oldest.idempotencyKey);
      }
      if (state.options.onStudyCreated) res.once('finish', () => state.options.onStudyCreated?.(study));
      return send(201, { studyId: study.id });
    }
    let studyId: string | undefined;
    try {
      studyId = id === undefined ? undefined : decodeURIComponent(id);
    } catch {
      return send(404, { message: 'study not found (its id is not valid percent-encoding)' });
    }
    const study = studyId === undefined ? undefined : state.studies.get(studyId);
    if (req.method !== 'GET' || !study) return send(404, { message: `study ${id ?? ''} not found` });
    if (results) return study.polls > 0 || state.options.runningPolls === 0 ? send(200, { results: standInResults(study) }) : send(409, { message: 'the study has not completed' });
    study.polls++;
    const runningPolls = study.scenario === 'slow' ? state.options.slowPolls : state.options.runningPolls;
    if (study.polls <= runningPolls) return send(200, { status: 'running', message: `iteration ${study.polls}` });
    if (study.scenario === 'fail') return send(200, { status: 'failed', message: 'The solver diverged at lap 3' });
    return send(200, { status: 'completed', message: null });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      // What went wrong stays here: the answer says only that it did.
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/json' }).end(JSON.stringify({ message: 'the stand-in failed to answer' }));
      else res.destroy(err instanceof Error ? err : undefined);
    });
  });
  // A port in use (another start of the demo) rejects, for the caller to say so, instead of an unhandled 'error' event.
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.stop = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}
