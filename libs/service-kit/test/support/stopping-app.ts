// A process with the process handlers every app installs, for lifecycle.test.ts: its one closer takes CLOSE_MS, its
// deadline is DEADLINE_MS; it logs JSON lines to stdout and says `ready` once its handlers are in place.
import { createLogger } from '../../src/logger';
import { installProcessHandlers } from '../../src/lifecycle';

const logger = createLogger('stopping-app', 'info', 'json');
const closeMs = Number(process.env['CLOSE_MS']);
installProcessHandlers(logger, [() => new Promise<void>((resolve) => setTimeout(resolve, closeMs))], Number(process.env['DEADLINE_MS']));
logger.info('ready');
// Work that keeps the process alive until it is stopped.
setInterval(() => undefined, 60_000);
