// @vscode/l10n, not vscode: pickers run in plain Node in unit tests (src/platform/l10n.ts hands it the bundle).
import * as l10n from '@vscode/l10n';
import type { ApiClient } from '../../api/client';
import type { KbNode } from '../../api/schemas/kbNodes';
import type { UserInput } from '../userInput';

export interface FolderChoice {
  id: string | null;
  label: string;
}

const MAX_FOLDERS = 1000;

/** Every folder of the knowledge base (breadth first, up to MAX_FOLDERS), for pickers. */
export async function listFolders(client: ApiClient, signal?: AbortSignal): Promise<KbNode[]> {
  const out: KbNode[] = [];
  const queue: Array<string | null> = [null];
  const seen = new Set<string>();
  while (queue.length && out.length < MAX_FOLDERS) {
    const parent = queue.shift()!;
    // Paging that never loops on a deployment ignoring offset (kbPaging.ts); a folder listed twice is kept once.
    const folders = await client.kbNodes.listAll(
      { parentFolderIds: [parent], nodeType: ['folder'], order: 'name_asc' },
      { signal, maxNodes: MAX_FOLDERS - out.length },
    );
    for (const f of folders) {
      if (seen.has(f.id) || f.nodeType === 'file') continue;
      seen.add(f.id);
      out.push(f);
      queue.push(f.id);
    }
  }
  return out;
}

/**
 * Quick pick of a target folder. `exclude` removes folders (and their subtrees) that cannot be
 * chosen, e.g. a folder being moved.
 */
export async function pickFolder(
  ui: UserInput,
  client: ApiClient,
  options: { title: string; placeHolder?: string; exclude?: ReadonlySet<string> },
): Promise<FolderChoice | undefined> {
  const items = listFolders(client).then((folders) => {
    const excluded = (f: KbNode): boolean =>
      !!options.exclude && (options.exclude.has(f.id) || f.breadcrumbs.some((b) => options.exclude!.has(b.id)));
    return [
      {
        label: `$(root-folder) ${l10n.t('Top level')}`,
        description: l10n.t('the knowledge base itself'),
        choice: { id: null, label: l10n.t('the top level') } as FolderChoice,
      },
      ...folders
        .filter((f) => !excluded(f))
        .map((f) => ({
          label: `$(folder) ${f.name}`,
          description: f.breadcrumbs.map((b) => b.name).join(' › '),
          choice: { id: f.id, label: f.name } as FolderChoice,
        })),
    ];
  });
  const pick = await ui.showQuickPick(items, {
    title: options.title,
    placeHolder: options.placeHolder ?? l10n.t('Choose a folder'),
    matchOnDescription: true,
  });
  return pick?.choice;
}

/** A target folder inside a message: quoted ("Policies", 「Policies」 in Japanese), or "the top level". */
export function targetLabel(choice: FolderChoice | undefined): string {
  return choice?.id ? l10n.t('"{0}"', choice.label) : l10n.t('the top level');
}
