// Open Original: a PDF opens in the citation viewer (which downloads it through the same public operation),
// anything else is downloaded into the size-limited cache (originalCache.ts) and opened with VS Code's own
// editor when VS Code can show it, else with the system's default app.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { KbNode } from '../../api/schemas/kbNodes';
import { isFileNode } from '../../api/values';
import type { CommandServices, SettingsSource } from '../../platform/commandServices';
import { CommandIds } from '../../platform/commandIds';
import { SettingKeys } from '../../platform/settings';
import { OriginalCache, type CachedOriginal } from './originalCache';

const VSCODE_SHOWS = /^(text\/|image\/(png|jpe?g|gif|webp|bmp|svg)|application\/(json|xml|x-yaml|yaml|javascript))/i;
const TEXT_EXTENSIONS = /\.(md|markdown|txt|csv|tsv|json|html?|xml|ya?ml|log|png|jpe?g|gif|webp|svg)$/i;

export type OpenedWith = 'citationViewer' | 'editor' | 'external';

export class OriginalOpener {
  readonly cache: OriginalCache;

  /** `storageDir`: the extension's global storage, where the cache keeps its `originals` folder. */
  constructor(
    private readonly c: Pick<CommandServices, 'connection'> & SettingsSource,
    storageDir: string,
  ) {
    this.cache = new OriginalCache(path.join(storageDir, 'originals'), () => {
      const mb = c.settings.get<number>(SettingKeys.originalsCacheMb, 200);
      return Math.max(1, Number.isFinite(mb) ? mb : 200) * 1024 * 1024;
    });
  }

  async open(node: KbNode): Promise<{ openedWith: OpenedWith; file?: CachedOriginal }> {
    if (!isFileNode(node)) throw new Error(vscode.l10n.t('"{0}" is a folder; choose a document.', node.name));
    if (/\.pdf$/i.test(node.name)) {
      await vscode.commands.executeCommand(CommandIds.answers.openDocument, { kbId: node.id, title: node.name, pageNo: 1 });
      return { openedWith: 'citationViewer' };
    }
    const client = await this.c.connection.getClient();
    const file = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Downloading {0}', node.name), cancellable: true },
      (_progress, token) => {
        const controller = new AbortController();
        token.onCancellationRequested(() => controller.abort());
        return this.cache.get(client.kbNodes, node, controller.signal);
      },
    );
    const uri = vscode.Uri.file(file.path);
    if (VSCODE_SHOWS.test(file.contentType) || TEXT_EXTENSIONS.test(file.path)) {
      await vscode.commands.executeCommand('vscode.open', uri, { preview: true });
      return { openedWith: 'editor', file };
    }
    const opened = await vscode.env.openExternal(uri);
    if (!opened) throw new Error(vscode.l10n.t('No application could open "{0}"; the downloaded file is {1}.', node.name, file.path));
    return { openedWith: 'external', file };
  }
}
