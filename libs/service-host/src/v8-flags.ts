import { setFlagsFromString } from 'node:v8';

/**
 * The V8 setting every app process runs with, applied by `runMain` and the standalone app before they start.
 *
 * V8's allocation-site pretenuring allocates an object straight in the old generation once objects made at the same
 * place in the code have been seen to outlive a young-generation collection. A request that is in flight across a
 * scavenge (a run sheet read rendering 300 laps, a reply waiting on the bus) makes its allocation sites look
 * long-lived, so from then on their short-lived objects fill the old generation, which V8 then marks and compacts
 * several times a second. Off, the entity-service's CPU per uncached run sheet read falls by about a third (5.2 to
 * 3.4 ms), the uncached read goes from about 140 to 190 req/s and the cached one from 1,100 to 1,600
 * (docs/benchmarks.md, session 13). `V8_PRETENURING=1` (exactly) keeps V8's default.
 *
 * Set at run time rather than on the command line so that every way of starting an app (Docker, `npm start`, the
 * process-level stack, a plain `node dist/apps/<app>/main.js`) runs the same way. V8 reads this flag at each
 * collection, when it decides from its allocation sites' feedback, so setting it after start takes effect.
 */
export function applyV8Flags(env: NodeJS.ProcessEnv = process.env): void {
  if (env['V8_PRETENURING'] === '1') return;
  setFlagsFromString('--no-allocation-site-pretenuring');
}
