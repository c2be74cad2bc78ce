import type { ApiClient } from '../api/client';
import type { Region } from '../core/regions';
import type { Log } from './logger';
import type { UserInput } from './userInput';

/** The connection as commands use it: the client (connecting first when needed) and the region it is for. */
export interface ClientSource {
  getClient(): Promise<ApiClient>;
  readonly region: Region;
}

/**
 * What a feature's commands take from the container: the client, the prompts and a log, nothing else.
 * The registrar passes the container itself, so `ui` is read at each prompt, never copied.
 */
export interface CommandServices {
  readonly connection: ClientSource;
  readonly ui: UserInput;
  log(component: string): Log;
}
