// A second project for the tests of connections, run profiles and promote: another local service, started in the
// host from its own temporary data folder, with its URL, key and a client of its own.
import { mkdtemp, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ApiClient } from '../../../src/api/client';
import { LocalServiceHost } from '../../../src/platform/connection/localServiceHost';
import type { KnowledgeDeskTestApi } from '../../../src/testApi';

export interface SecondProject {
  readonly url: string;
  readonly apiKey: string;
  readonly client: ApiClient;
  /** Its data folder (lock.json there names the service's process). */
  readonly dataDir: string;
  /** Stops the service and removes its data folder. */
  dispose(): Promise<void>;
}

export async function startSecondProject(api: KnowledgeDeskTestApi, folderPrefix: string): Promise<SecondProject> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), folderPrefix));
  const host = new LocalServiceHost({
    extensionPath: api.context.extensionPath,
    dataDir,
    log: api.log('second-project'),
    allowedRoots: () => [],
    maxUploadBytes: () => 16 * 1024 * 1024,
  });
  const ep = await host.ensureStarted();
  return {
    url: ep.url,
    apiKey: ep.apiKey,
    client: api.connection.createClient({ baseUrl: ep.url, nluUrl: ep.url }, ep.apiKey),
    dataDir,
    async dispose() {
      // Stopped and waited for, so it writes nothing into the folder while it is removed.
      await host.close();
      host.dispose();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
