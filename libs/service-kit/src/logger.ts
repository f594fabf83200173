import pino from 'pino';

export type Logger = pino.Logger;

/** One structured (JSON) logger per app; `LOG_LEVEL` sets the level (default info, silent in tests unless set). */
export function createLogger(app: string, level = process.env['LOG_LEVEL'] ?? (process.env['JEST_WORKER_ID'] ? 'silent' : 'info')): Logger {
  if (level !== 'silent' && !(level in pino.levels.values)) throw new Error(`Invalid configuration:\n  LOG_LEVEL: '${level}' is not one of ${Object.keys(pino.levels.values).join(', ')}, silent`);
  return pino({ name: app, level, base: { app }, timestamp: pino.stdTimeFunctions.isoTime });
}
