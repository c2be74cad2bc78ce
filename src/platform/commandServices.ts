import type { ApiClient } from '../api/client';
import type { Region } from '../core/regions';
import type { ConnectionList } from './connection/connectionLabel';
import type { DetailsDocuments } from './detailsDocument';
import type { Log } from './logger';
import type { Settings } from './settings';
import type { UserInput } from './userInput';

/** The connection as commands use it: the client (connecting first when needed) and the region it is for. */
export interface ClientSource {
  getClient(): Promise<ApiClient>;
  readonly region: Region;
  /** The connections, so a prompt can name the one it acts on (connectionLabel.ts). */
  readonly store: ConnectionList;
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

/** Reading settings, for commands that honour one. */
export interface SettingsSource {
  readonly settings: Pick<Settings, 'get'>;
}

/** Show Details reports (platform/detailsDocument.ts), for commands that end with one. */
export interface DetailsSource {
  readonly details: Pick<DetailsDocuments, 'show'>;
}
