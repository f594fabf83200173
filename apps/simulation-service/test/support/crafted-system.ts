import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What a hostile (or broken) simulation system answers for the studies of one setup, as raw JSON text so a test can
 * send what JSON.stringify never would (lone surrogates, NUL escapes, nesting past the stack). Each answer defaults to
 * a well-formed one.
 */
export interface CraftedAnswers {
  /** The body of the answer to `POST /studies` (default: a fresh `{"studyId":"cs-<uuid>"}`). */
  create?: string;
  /** The body of `GET /studies/{id}`, by the study's status read count from 1 (default: completed). */
  status?: (poll: number) => string;
  /** The body of `GET /studies/{id}/results` (default: no results). */
  results?: string;
}

export interface CraftedSystem {
  url: string;
  /** Answers by the name of the setup the study is created for (the create's `name`). */
  answers: Map<string, CraftedAnswers>;
  calls: { method: string; path: string; name: string | null }[];
  stop(): Promise<void>;
}

/** A simulation system on 127.0.0.1 answering the token call, creates, status and results reads as `answers` say. */
export async function startCraftedSystem(): Promise<CraftedSystem> {
  const answers = new Map<string, CraftedAnswers>();
  const studies = new Map<string, { name: string; polls: number }>();
  const calls: CraftedSystem['calls'] = [];
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const path = new URL(req.url ?? '/', 'http://crafted').pathname;
    const send = (status: number, body: string) => void res.writeHead(status, { 'Content-Type': 'application/json' }).end(body);
    if (req.method === 'POST' && path === '/oauth/token') {
      calls.push({ method: 'POST', path, name: null });
      return send(200, '{"access_token":"crafted-token"}');
    }
    if (req.method === 'POST' && path === '/studies') {
      const { name } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { name: string };
      calls.push({ method: 'POST', path, name });
      const crafted = answers.get(name) ?? {};
      if (crafted.create !== undefined) return send(201, crafted.create);
      const id = `cs-${randomUUID()}`;
      studies.set(id, { name, polls: 0 });
      return send(201, JSON.stringify({ studyId: id }));
    }
    const match = /^\/studies\/([^/]+)(\/results)?$/.exec(path);
    const study = match ? studies.get(decodeURIComponent(match[1] as string)) : undefined;
    calls.push({ method: req.method ?? '', path, name: study?.name ?? null });
    if (!match || !study) return send(404, '{"message":"no such study"}');
    const crafted = answers.get(study.name) ?? {};
    if (match[2]) return send(200, crafted.results ?? '{"results":{}}');
    study.polls++;
    return send(200, crafted.status ? crafted.status(study.polls) : '{"status":"completed"}');
  };
  const server = createServer((req, res) => void handle(req, res).catch(() => res.writeHead(500).end()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    answers,
    calls,
    stop: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
