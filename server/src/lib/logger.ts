export type LogLevel = 'silent' | 'error' | 'info' | 'debug';

const ORDER: Record<LogLevel, number> = { silent: 0, error: 1, info: 2, debug: 3 };

export interface Logger {
  error(message: string, error?: unknown): void;
  info(message: string): void;
  debug(message: string): void;
}

export function createLogger(level: LogLevel): Logger {
  const on = (at: LogLevel) => ORDER[level] >= ORDER[at];
  return {
    error: (message, error) => {
      if (on('error'))
        console.error(`[clipnest] ${message}`, error instanceof Error ? (error.stack ?? error.message) : (error ?? ''));
    },
    info: (message) => {
      if (on('info')) console.log(`[clipnest] ${message}`);
    },
    debug: (message) => {
      if (on('debug')) console.log(`[clipnest] ${message}`);
    },
  };
}
