// Where a local project keeps its data; no vscode, so unit tests start real services on the same folders.
import * as path from 'node:path';
import { DEFAULT_PROJECT } from '../../../core/connections';

/** The project names a data folder, so it must stay one plain folder name (the schema says so too; this is the last guard). */
const SAFE_PROJECT = /^[\w-]{1,64}$/;

/**
 * The data folder of a local project under the extension's global storage: the default project keeps the folder
 * the local service always had (`local-service`), another lives in `local-projects/<project>`, its project id
 * being the id of the connection that created it, never text the user typed.
 */
export function localProjectDir(storageDir: string, project: string): string {
  if (project === DEFAULT_PROJECT) return path.join(storageDir, 'local-service');
  if (!SAFE_PROJECT.test(project)) throw new Error(`not a local project id: ${JSON.stringify(project)}`);
  return path.join(storageDir, 'local-projects', project);
}
