// What a document carries besides its file: Edit Hashtags…, Turn Off / Turn On.
import * as vscode from 'vscode';
import type { KbNode } from '../../api/schemas/kbNodes';
import { isFileNode } from '../../api/values';
import { pickHashtags } from '../../platform/pickers/hashtagPicker';
import { KbCommandGroup } from './kbCommandGroup';
import { existing, offered } from './kbOperations';
import { requireNode, selectedNodes } from './kbSelection';
import type { KbElement, NodeElement } from './kbTreeModel';

export class KbDocumentCommands extends KbCommandGroup {
  /** Edit Hashtags… of a document, with the picker of hashtags in use. */
  async editHashtags(element?: NodeElement): Promise<KbNode | undefined> {
    const node = requireNode(this.view, element);
    if (!isFileNode(node)) throw new Error(vscode.l10n.t('"{0}" is a folder; hashtags belong to documents.', node.name));
    const client = await this.s.connection.getClient();
    const tags = await pickHashtags(this.s.ui, client, {
      title: vscode.l10n.t('Hashtags of "{0}"', node.name),
      current: node.hashtags,
      log: this.s.log('kb'),
    });
    if (tags === undefined) return undefined;
    if (tags.length === node.hashtags.length && tags.every((t, i) => t === node.hashtags[i])) return node;
    const updated = await offered(this.s.connection, () =>
      existing(
        () => this.tree.refresh(),
        node.name,
        () => client.kbNodes.setHashtags(node.id, tags),
      ),
    );
    if (!updated) return undefined;
    this.tree.updateNode(updated);
    vscode.window.setStatusBarMessage(
      vscode.l10n.t('Hashtags of {0}: {1}', node.name, tags.length ? tags.map((t) => `#${t}`).join(' ') : vscode.l10n.t('none')),
      4000,
    );
    return updated;
  }

  /** Turn Off / Turn On the selected documents; folders in the selection are left alone. */
  async toggle(status: 'on' | 'off', element?: NodeElement, selection?: readonly KbElement[]): Promise<string[]> {
    const nodes = selectedNodes(this.view, element, selection);
    const docs = nodes.filter(isFileNode);
    if (!docs.length) {
      throw new Error(
        nodes.length
          ? vscode.l10n.t('Folders cannot be turned on or off; select documents.')
          : vscode.l10n.t('Select documents in the Knowledge Base view first.'),
      );
    }
    const client = await this.s.connection.getClient();
    const result = await offered(this.s.connection, () =>
      client.kbNodes.toggle(
        docs.map((d) => d.id),
        status,
      ),
    );
    if (!result) return [];
    await this.tree.refresh();
    const missed = docs.filter((d) => !result.updated.includes(d.id));
    const off = status === 'off';
    const head =
      docs.length === 1 && !missed.length
        ? off
          ? vscode.l10n.t('Turned off "{0}".', docs[0].name)
          : vscode.l10n.t('Turned on "{0}".', docs[0].name)
        : result.updated.length === 1
          ? off
            ? vscode.l10n.t('Turned off {0} document.', 1)
            : vscode.l10n.t('Turned on {0} document.', 1)
          : off
            ? vscode.l10n.t('Turned off {0} documents.', result.updated.length)
            : vscode.l10n.t('Turned on {0} documents.', result.updated.length);
    const tail = missed.length
      ? vscode.l10n.t('{0} could not be changed (deleted meanwhile?): {1}.', missed.length, missed.map((d) => d.name).join(', '))
      : '';
    void (missed.length ? vscode.window.showWarningMessage(`${head} ${tail}`) : vscode.window.showInformationMessage(head));
    return result.updated;
  }
}
