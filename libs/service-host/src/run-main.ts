import type { z } from 'zod';
import { createLogger, installProcessHandlers, SHUTDOWN_CLOSE_MS, type Logger } from '@pitwall/service-kit';
import type { ServiceDefinition, ServiceParts } from './definition';
import { startService } from './start-service';
import { applyV8Flags } from './v8-flags';

/** The `require.main === module` tail of every app: start the definition, install process handlers, exit 1 on a failed start. */
export function runMain<S extends z.ZodObject, P extends ServiceParts>(definition: ServiceDefinition<S, P>, env: NodeJS.ProcessEnv = process.env): void {
  applyV8Flags(env);
  const { name } = definition;
  let logger: Logger;
  try {
    logger = createLogger(name);
  } catch (err) {
    process.stderr.write(`${name} failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
  startService(definition, { env }).then(
    // The grace for the requests taken, then a little for the rest to close: past both the process exits 1.
    (running) => installProcessHandlers(logger, [running.stop], running.graceMs + SHUTDOWN_CLOSE_MS),
    (err) => {
      logger.fatal({ err: err instanceof Error ? err.message : err }, `${name} failed to start`);
      process.exit(1);
    },
  );
}
