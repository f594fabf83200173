import type { Request, Response } from 'express';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** The Prometheus text format's media type (version 0.0.4), as `/metrics` answers it. */
export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** Seconds: from a few milliseconds (a cached read) to the longest a write may wait for its service. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 70];

/**
 * One app's Prometheus metrics, served on its internal port (`/metrics`, docs/operations.md#metrics): Node's own
 * (CPU, memory, event-loop lag, garbage collection, handles) and what the app does, each series labelled with the app.
 * Labels only take bounded values (a route's template, a command's name, a status code): never an id or a URL.
 */
export class Metrics {
  readonly registry = new Registry();
  /** HTTP answers by method, route template and status (`aborted`: the connection closed before the answer's end). */
  readonly httpRequests: Histogram<'method' | 'route' | 'status'>;
  /** Bus commands a service handled, by command and outcome (`ok`, or the status it answered: `400`, `503`...). */
  readonly busCommands: Histogram<'command' | 'outcome'>;

  private readonly processMetrics: boolean;

  constructor(app: string, options: { processMetrics?: boolean } = {}) {
    this.registry.setDefaultLabels({ app });
    this.processMetrics = options.processMetrics ?? true;
    if (this.processMetrics) processRegistry();
    this.httpRequests = new Histogram({ name: 'pitwall_http_request_duration_seconds', help: 'HTTP answers: seconds from the request to the end of its answer, by method, route template and status', labelNames: ['method', 'route', 'status'], buckets: DURATION_BUCKETS, registers: [this.registry] });
    this.busCommands = new Histogram({ name: 'pitwall_bus_command_duration_seconds', help: 'Bus commands handled: seconds from the message to the reply, by command and outcome', labelNames: ['command', 'outcome'], buckets: DURATION_BUCKETS, registers: [this.registry] });
  }

  /** A gauge read when scraped (a pool's queue, a cache's bytes): `read` gives its value, or its values by label. */
  gauge(name: string, help: string, read: () => number | Promise<number>): void {
    new Gauge({
      name,
      help,
      registers: [this.registry],
      async collect() {
        this.set(await read());
      },
    });
  }

  /** A counter the app increments (`inc()`), optionally by labels. */
  counter<L extends string>(name: string, help: string, labelNames: readonly L[] = []): Counter<L> {
    return new Counter({ name, help, labelNames, registers: [this.registry] });
  }

  /** The text of a scrape: the process's own figures (without an app label: every app of a process shares them), then the app's. */
  async text(): Promise<string> {
    const own = await this.registry.metrics();
    return this.processMetrics ? `${await processRegistry().metrics()}\n${own}` : own;
  }

  /**
   * Times an HTTP answer from now until the connection is done with it: its route is the template it matched
   * (`/Championships/{id}`), or `unmatched` (a 404 or a refusal before routing), so one series per route whatever the
   * ids asked for.
   */
  timeHttp(req: Request, res: Response): void {
    const timed = this.httpRequests.startTimer();
    res.once('close', () => timed({ method: req.method, route: routeOf(req, res), status: res.writableFinished ? String(res.statusCode) : 'aborted' }));
  }
}

/** `res.locals[METRICS_ROUTE]`: the route's name in the metrics when a handler set one (the gateway's operations). */
export const METRICS_ROUTE = 'metricsRoute';

/** The route an answer is counted under: the name a handler set, else the express route matched, else `unmatched`. */
let processFigures: Registry | undefined;

/**
 * Node's own figures (CPU, memory, event-loop lag, garbage collection), collected once per process: their observers
 * are never stopped, and the apps that share a process (`npm start`) share them.
 */
function processRegistry(): Registry {
  if (!processFigures) {
    processFigures = new Registry();
    collectDefaultMetrics({ register: processFigures });
  }
  return processFigures;
}

function routeOf(req: Request, res: Response): string {
  const named: unknown = res.locals[METRICS_ROUTE];
  if (typeof named === 'string') return named;
  const path: unknown = (req.route as { path?: unknown } | undefined)?.path;
  return typeof path === 'string' ? `${req.baseUrl}${path}` : 'unmatched';
}
