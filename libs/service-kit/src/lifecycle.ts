import type { Logger } from './logger';

type Closer = () => Promise<void>;

/**
 * Process-level handlers in one place: unhandled rejections and uncaught exceptions are logged and end the
 * process; SIGTERM/SIGINT, and the end of a supervisor's IPC channel, run the closers in order (stop taking work
 * first) and exit 0, or 1 after the deadline. The last line says which: `stopped` with its exit code once the closers
 * ran, or the deadline's error, so a clean stop is told from a cut one.
 */
export function installProcessHandlers(logger: Logger, closers: Closer[], deadlineMs = 10_000): () => Promise<void> {
  let stopping: Promise<void> | undefined;
  const shutdown = (reason: string): Promise<void> => {
    if (stopping) return stopping;
    logger.info({ reason }, 'shutting down');
    const timer = setTimeout(() => {
      logger.error({ reason, exitCode: 1 }, `shutdown deadline passed (${deadlineMs} ms): exiting 1 with work left undone`);
      process.exit(1);
    }, deadlineMs);
    timer.unref();
    stopping = (async () => {
      for (const close of closers) {
        try {
          await close();
        } catch (err) {
          logger.error({ err }, 'error while shutting down');
        }
      }
      clearTimeout(timer);
    })();
    return stopping;
  };
  const stopThenExit = (reason: string, exitCode: number) =>
    void shutdown(reason).then(() => {
      logger.info({ reason, exitCode }, `stopped (${reason}); exiting ${exitCode}`);
      process.exit(exitCode);
    });
  process.on('SIGTERM', () => stopThenExit('SIGTERM', 0));
  process.on('SIGINT', () => stopThenExit('SIGINT', 0));
  // Started by a supervisor with an IPC channel (tools/stack.cjs): the channel ends with the supervisor, however it
  // ends (a kill -9 too), and the process stops as on SIGTERM rather than live on unsupervised. Without a channel (a
  // container, a shell) nothing changes; the channel itself never keeps the process alive.
  if (process.send) {
    process.channel?.unref();
    const supervisorGone = () => stopThenExit('supervisor gone (its IPC channel closed)', 0);
    if (process.connected) process.once('disconnect', supervisorGone);
    else supervisorGone();
  }
  process.on('unhandledRejection', (err) => {
    logger.fatal({ err }, 'unhandled rejection');
    stopThenExit('unhandledRejection', 1);
  });
  process.on('uncaughtException', (err) => {
    logger.fatal({ err }, 'uncaught exception');
    stopThenExit('uncaughtException', 1);
  });
  return () => shutdown('requested');
}
