export interface LocalLogger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export const silentLogger: LocalLogger = { debug() {}, info() {}, warn() {}, error() {} };

export function consoleLogger(verbose = false): LocalLogger {
  const stamp = (): string => new Date().toISOString();
  return {
    debug: (m) => verbose && console.log(`${stamp()} debug ${m}`),
    info: (m) => console.log(`${stamp()} info  ${m}`),
    warn: (m) => console.warn(`${stamp()} warn  ${m}`),
    error: (m) => console.error(`${stamp()} error ${m}`),
  };
}
