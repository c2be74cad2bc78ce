// dist/local.js run by the extension host as its child (`--supervised`): the service starts when the parent
// sends `start`, says where it listens over IPC, logs to stdout and stops when the parent goes away.
import type { LocalLogger } from '../logger';
import { startLocalService, type LocalService, type LocalServiceOptions } from '../service';
import { loadOrCreateKeys } from '../store/keys';
import { DataFolderLockedError } from '../store/lock';
import type { ChildMessage, ChildStartOptions, LogLevel, ParentMessage } from '../../core/localServiceProtocol';

export function runSupervised(): void {
  let service: LocalService | undefined;
  let stopping = false;
  /** A writer change that arrived while the service was starting (its start options had the previous one). */
  let pendingWriter: { writer?: ChildStartOptions['writer'] } | undefined;
  const stop = (code: number): void => {
    if (stopping) return;
    stopping = true;
    void (service?.close() ?? Promise.resolve()).finally(() => process.exit(code));
  };
  // The extension host went away (window closed, host crashed): a service nobody can reach must not linger.
  process.on('disconnect', () => stop(0));
  process.once('SIGTERM', () => stop(0));
  process.once('SIGINT', () => stop(0));
  process.on('message', (message: ParentMessage) => {
    if (message.type === 'setAllowedRoots') service?.setAllowedRoots(message.roots);
    else if (message.type === 'setWriter') {
      if (service) service.setWriter(message.writer);
      else pendingWriter = { writer: message.writer };
    } else if (message.type === 'start' && !service)
      void start(message.options).then(
        (started) => {
          service = started;
          if (pendingWriter) started.setWriter(pendingWriter.writer);
          pendingWriter = undefined;
        },
        () => undefined,
      );
  });

  async function start(options: ChildStartOptions): Promise<LocalService> {
    try {
      const started = await startWithPort(options);
      send({ type: 'ready', url: started.url, apiKey: started.apiKey, nluApiKey: started.nluApiKey });
      return started;
    } catch (error) {
      if (error instanceof DataFolderLockedError) {
        const keys = await loadOrCreateKeys(options.dataDir).catch(() => ({ apiKey: '', nluApiKey: '' }));
        send({ type: 'locked', owner: { pid: error.owner.pid, url: error.owner.url }, ...keys }, () => stop(0));
      } else {
        lineLogger.error(`start failed: ${(error as Error)?.stack ?? String(error)}`);
        send({ type: 'failed', message: (error as Error)?.message ?? String(error) }, () => stop(1));
      }
      throw error;
    }
  }
}

async function startWithPort(options: ChildStartOptions): Promise<LocalService> {
  const { port, ...rest } = options;
  const serviceOptions: LocalServiceOptions = { ...rest, logger: lineLogger };
  try {
    return await startLocalService({ ...serviceOptions, port: port ?? 0 });
  } catch (error) {
    // The previous run's port was taken meanwhile: any free port (the parent picks up the new address).
    if (!port || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    return startLocalService({ ...serviceOptions, port: 0 });
  }
}

function send(message: ChildMessage, then?: () => void): void {
  if (!process.send) return then?.();
  process.send(message, undefined, {}, () => then?.());
}

function write(level: LogLevel, message: string): void {
  // One entry per line for the parent's parser; a stack's further lines are indented under it.
  const text = `${level} ${message.replace(/\r?\n/g, '\n  ')}\n`;
  (level === 'error' || level === 'warn' ? process.stderr : process.stdout).write(text);
}

const lineLogger: LocalLogger = {
  debug: (m) => write('debug', m),
  info: (m) => write('info', m),
  warn: (m) => write('warn', m),
  error: (m) => write('error', m),
};
