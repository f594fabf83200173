// A stand-in for the external vehicle-simulation system, for tests, benchmarks and the embedded default: the same
// HTTP API the simulation-service's adapter speaks (token, create study, poll status, fetch results), in memory.
//
// Switches: `scenario` for every study ('success', 'start-failure', 'fail', 'slow', 'unavailable'), overridden per
// study by a parameter value `standin:<scenario>` among the setup parameters sent with it; `runningPolls` status
// reads that answer `running` before `completed` (0 answers at once); `transientFailures` next calls answered 503.
// A create carrying an `Idempotency-Key` header is answered the study first created with that key (no second one).
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
}

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
  options: Required<Omit<StandInOptions, 'onStudyCreated'>> & Pick<StandInOptions, 'onStudyCreated'>;
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

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const send = (status: number, body: unknown) => {
      state.calls.push({ method: req.method ?? '', path: url.pathname, status });
      res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
    };
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let body: Record<string, unknown> = {};
    try {
      body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>) : {};
    } catch {
      return send(400, { message: 'body is not JSON' });
    }
    if (state.options.transientFailures > 0) {
      state.options.transientFailures--;
      return send(503, { message: 'temporarily unavailable' });
    }
    if (req.method === 'POST' && url.pathname === '/oauth/token') {
      const missing = ['client_id', 'client_secret', 'username', 'password'].filter((k) => typeof body[k] !== 'string' || body[k] === '');
      if (missing.length || body['password'] === 'wrong') return send(401, { message: `invalid credentials${missing.length ? `: missing ${missing.join(', ')}` : ''}` });
      const token = randomUUID();
      tokens.add(token);
      state.logins.push(String(body['client_id']));
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
      const earlier = key === null ? undefined : [...state.studies.values()].find((s) => s.idempotencyKey === key);
      if (earlier) return send(201, { studyId: earlier.id });
      const study: Study = { id: `st-${randomUUID()}`, idempotencyKey: key, name: String(body['name'] ?? ''), parameters, scenario, polls: 0 };
      state.studies.set(study.id, study);
      if (state.options.onStudyCreated) res.once('finish', () => state.options.onStudyCreated?.(study));
      return send(201, { studyId: study.id });
    }
    const study = id ? state.studies.get(decodeURIComponent(id)) : undefined;
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
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/json' }).end(JSON.stringify({ message: String(err) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.stop = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}
