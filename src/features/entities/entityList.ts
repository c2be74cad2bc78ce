// List Entities: the recognised entities of the active editor in a quick pick, grouped by tag (tags in
// order of first appearance, entities in text order); picking one reveals and selects it.
import * as vscode from 'vscode';
import type { CommandServices } from '../../platform/commandServices';
import { formatNumber } from '../../platform/l10n';
import type { DecoratedEntity, EntityDecorations } from './entityDecorations';

type EntityItem = vscode.QuickPickItem & { entity?: DecoratedEntity };

export function entityItems(entities: readonly DecoratedEntity[]): EntityItem[] {
  const byTag = new Map<string, DecoratedEntity[]>();
  for (const e of entities) byTag.set(e.tag, [...(byTag.get(e.tag) ?? []), e]);
  const items: EntityItem[] = [];
  for (const [tag, list] of byTag) {
    items.push({ label: `${tag} (${formatNumber(list.length)})`, kind: vscode.QuickPickItemKind.Separator });
    for (const entity of list) {
      const at = entity.range.start;
      items.push({
        label: entity.token.replace(/\s+/g, ' '),
        description: `${tag} · ${vscode.l10n.t('Ln {0}, Col {1}', at.line + 1, at.character + 1)}`,
        entity,
      });
    }
  }
  return items;
}

export async function showEntityList(c: Pick<CommandServices, 'ui'>, decorations: EntityDecorations): Promise<DecoratedEntity | undefined> {
  const editor = vscode.window.activeTextEditor;
  const entities = editor ? decorations.entities(editor.document.uri) : [];
  if (!editor || entities.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No recognised entities in this editor. Run “Recognize Entities” first.'));
    return undefined;
  }
  const picked = await c.ui.showQuickPick(entityItems(entities), {
    title: vscode.l10n.t('Entities in {0} ({1})', vscode.workspace.asRelativePath(editor.document.uri), formatNumber(entities.length)),
    placeHolder: vscode.l10n.t('Type to filter; pick one to go to it'),
    matchOnDescription: true,
  });
  if (!picked?.entity) return undefined;
  const range = picked.entity.range;
  const shown = await vscode.window.showTextDocument(editor.document, {
    viewColumn: editor.viewColumn,
    selection: new vscode.Selection(range.start, range.end),
  });
  shown.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  return picked.entity;
}
