import type { Handlers } from '../http/context';

export interface ServiceInfo {
  name: string;
  version: string;
  startedAt: number;
  counts: () => Record<string, number>;
}

/** GET /_local/info: served always (the extension checks that a service another window started answers). */
export function adminHandlers(info: ServiceInfo): Handlers {
  return {
    'admin.info': async () => ({ name: info.name, version: info.version, startedAt: info.startedAt, counts: info.counts() }),
  };
}
