import type { Logger } from './logger';

type Closer = () => Promise<void>;

/**
 * Process-level handlers in one place: unhandled rejections and uncaught exceptions are logged and end the
 * process; SIGTERM/SIGINT, and the end of a supervisor's IPC channel, run the closers in order (stop taking work
 * first) and exit 0, or 1 after the deadline.
 */
export function installProcessHandlers(logger: Logger, closers: Closer[], deadlineMs = 10_000): () => Promise<void> {
  let stopping: Promise<void> | undefined;
  const shutdown = (reason: string): Promise<void> => {
    if (stopping) return stopping;
    logger.info({ reason }, 'shutting down');
    const timer = setTimeout(() => {
      logger.error('shutdown deadline passed, exiting');
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
  process.on('SIGTERM', () => void shutdown('SIGTERM').then(() => process.exit(0)));
  process.on('SIGINT', () => void shutdown('SIGINT').then(() => process.exit(0)));
  // Started by a supervisor with an IPC channel (tools/stack.cjs): the channel ends with the supervisor, however it
  // ends (a kill -9 too), and the process stops as on SIGTERM rather than live on unsupervised. Without a channel (a
  // container, a shell) nothing changes; the channel itself never keeps the process alive.
  if (process.send) {
    process.channel?.unref();
    const supervisorGone = () => void shutdown('supervisor gone (its IPC channel closed)').then(() => process.exit(0));
    if (process.connected) process.once('disconnect', supervisorGone);
    else supervisorGone();
  }
  process.on('unhandledRejection', (err) => {
    logger.fatal({ err }, 'unhandled rejection');
    void shutdown('unhandledRejection').then(() => process.exit(1));
  });
  process.on('uncaughtException', (err) => {
    logger.fatal({ err }, 'uncaught exception');
    void shutdown('uncaughtException').then(() => process.exit(1));
  });
  return () => shutdown('requested');
}
