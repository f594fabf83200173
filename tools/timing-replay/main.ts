// CLI of the timing replay (bundle first, the repo has no TypeScript runner):
//   node_modules/.bin/esbuild tools/timing-replay/main.ts --bundle --platform=node --tsconfig=tsconfig.base.json --outfile=dist/tools/timing-replay.js
//   node dist/tools/timing-replay.js --url http://127.0.0.1:8080 --api-key <key> --account <accountId> \
//     [--cars 30] [--hours 3] [--speed-up 60 | --rate 850] [--concurrency 32] [--seed 1]
//   --rate paces the feed at that many updates a second on average (the speed-up that gives it), instead of --speed-up.
// Creates a session in the account, plays the feed through the gateway, verifies the stored data exactly, prints
// throughput and latency, and exits 1 when the store does not hold the feed.
import { counts, createSession, generateFeed, httpSend, replay, speedUpFor, verify, type Send } from './replay';

function parseArgs(argv: string[]) {
  const options = { url: '', apiKey: '', account: '', cars: 30, hours: 3, speedUp: 60, rate: 0, concurrency: 32, seed: 1 };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1] ?? ''];
    if (flag === '--url') options.url = value;
    else if (flag === '--api-key') options.apiKey = value;
    else if (flag === '--account') options.account = value;
    else if (flag === '--cars') options.cars = Number(value);
    else if (flag === '--hours') options.hours = Number(value);
    else if (flag === '--speed-up') options.speedUp = value === 'max' ? Infinity : Number(value);
    else if (flag === '--rate') options.rate = Number(value);
    else if (flag === '--concurrency') options.concurrency = Number(value);
    else if (flag === '--seed') options.seed = Number(value);
    else throw new Error(`unknown option ${flag}`);
  }
  if (!options.url || !options.apiKey || !options.account) throw new Error('usage: timing-replay --url <gateway> --api-key <key> --account <accountId> [--cars n] [--hours h] [--speed-up x|max | --rate n] [--concurrency n] [--seed n]');
  return options;
}

async function main(): Promise<void> {
  const o = parseArgs(process.argv.slice(2));
  const headers = { ApiKey: o.apiKey, AccountId: o.account, 'Content-Type': 'application/json' };
  const send: Send = httpSend(o.url, headers, Math.max(1, o.concurrency));
  const { updates, expected } = generateFeed({ cars: o.cars, hours: o.hours, seed: o.seed });
  const c = counts(expected);
  console.log(`feed: ${o.cars} cars, ${o.hours} h, ${updates.length} updates (${c.runs} runs, ${c.laps} laps, ${c.sectors} sectors, ${c.speedTraps} speed traps), seed ${o.seed}`);
  const setup = await createSession(send, o.account, o.cars);
  const speedUp = o.rate > 0 ? speedUpFor(updates, o.rate) : o.speedUp;
  const result = await replay(send, setup, updates, { speedUp, concurrency: o.concurrency });
  const paced = Number.isFinite(speedUp) ? ` (speed-up ${speedUp.toFixed(1)}; sent late p99 ${result.lateP99.toFixed(1)} ms)` : '';
  console.log(`replay: ${result.updates} updates in ${result.seconds.toFixed(1)} s = ${result.perSecond.toFixed(0)} updates/s${paced}; p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms, max ${result.max.toFixed(1)} ms; ${result.retried} retried`);
  const problems = await verify(send, setup, expected);
  if (problems.length) {
    console.log(`verify: ${problems.length} differences\n${problems.slice(0, 20).join('\n')}`);
    process.exitCode = 1;
  } else console.log(`verify: the store holds the feed exactly (session ${setup.ids.sessionId})`);
}

main().catch((err: unknown) => {
  console.error((err as Error).message);
  process.exitCode = 1;
});
