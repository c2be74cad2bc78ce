// How the Knowledge Base commands run the service's optional operations (docs/api.md#further-public-operations):
// one the deployment does not offer (404/405) is said once and its command hidden for the region
// (src/platform/offerContext.ts); a node deleted meanwhile becomes a message saying so.
import * as vscode from 'vscode';
import { OperationNotOfferedError } from '../../api/errors';
import { REGION_INFO } from '../../core/regions';
import type { ClientSource } from '../../platform/commandServices';

/** What each optional operation is called in "this deployment does not offer …". */
const OPERATION_NAMES: Record<string, () => string> = {
  'folders.create': () => vscode.l10n.t('creating folders'),
  'folders.rename': () => vscode.l10n.t('renaming folders'),
  'folders.delete': () => vscode.l10n.t('deleting folders'),
  'kbNodes.update': () => vscode.l10n.t('editing documents (rename, hashtags)'),
  'kbNodes.toggle': () => vscode.l10n.t('turning documents on or off'),
  'kbNodes.download': () => vscode.l10n.t('downloading original documents'),
};

/**
 * Runs an optional operation; "not offered" is said once (the command is hidden for this region from then
 * on) and gives undefined.
 */
export async function offered<T>(connection: Pick<ClientSource, 'region'>, run: () => Promise<T>): Promise<T | undefined> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof OperationNotOfferedError)) throw error;
    const what = OPERATION_NAMES[error.operation]?.() ?? error.operation;
    const region = REGION_INFO[connection.region]?.label ?? connection.region;
    void vscode.window.showInformationMessage(
      vscode.l10n.t('The {0} deployment does not offer {1} through the API; the command is hidden for this region.', region, what),
    );
    return undefined;
  }
}

/** A node deleted meanwhile (404 naming it) becomes a message saying so, and the tree is refreshed. */
export async function existing<T>(refresh: () => Promise<void>, name: string | undefined, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if ((error as { name?: string })?.name !== 'NotFoundError' || error instanceof OperationNotOfferedError) throw error;
    await refresh();
    throw new Error(
      name
        ? vscode.l10n.t('"{0}" no longer exists in the knowledge base (deleted meanwhile?); the view was refreshed.', name)
        : vscode.l10n.t('That item no longer exists in the knowledge base (deleted meanwhile?); the view was refreshed.'),
    );
  }
}
