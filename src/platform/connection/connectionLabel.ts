// Which connection a title names: panels ("Ask Knowledge Desk — Beta") and the upload prompts ("Upload files to the
// top level — Beta") say where they go once the user has a connection of their own. No vscode import: tested in Node.
import { isDefaultId, type Connection } from '../../core/connections';

/** The connection list as titles read it (ConnectionStore). */
export interface ConnectionList {
  readonly connections: readonly Connection[];
  readonly active: Connection;
}

/**
 * The active connection's name once the user has a connection of their own; undefined with only the ones migrated
 * from the regions (US, JA, Custom, Local): one project per region, and titles stay as they were.
 */
export function activeConnectionLabel(list: ConnectionList): string | undefined {
  return list.connections.some((c) => !isDefaultId(c.id)) ? list.active.name : undefined;
}

/** `title — name`, or the title alone when there is no name to give. */
export function titleWithName(title: string, name: string | undefined): string {
  return name ? `${title} — ${name}` : title;
}
