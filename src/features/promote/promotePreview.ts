// The promote preview: one QuickPick with a check box per item, grouped by kind (New, Changed with the fields
// that differ, Only in target, unpicked: picking one there asks to delete it), the unchanged ones counted in the
// title, and an "Open as Diff" button for Q&As.
import * as vscode from 'vscode';
import type { UserInput } from '../../platform/userInput';
import { WindowUserInput } from '../../platform/userInput';
import type { PromoteRow } from './promoteSession';

export interface PreviewItem extends vscode.QuickPickItem {
  row?: PromoteRow;
}

export type PreviewAnswer = { picked: PromoteRow[] } | 'diff' | undefined;

export function previewItems(rows: readonly PromoteRow[], preselect: boolean): PreviewItem[] {
  const out: PreviewItem[] = [];
  const group = (kind: PromoteRow['kind'], label: string, picked: boolean) => {
    const list = rows.filter((r) => r.kind === kind);
    if (!list.length) return;
    out.push({ label: `${label} (${list.length})`, kind: vscode.QuickPickItemKind.Separator });
    for (const row of list)
      out.push({
        label: row.label,
        ...(row.detail ? { detail: row.detail } : {}),
        ...(kind === 'onlyInTarget' ? { description: vscode.l10n.t('delete in the target') } : {}),
        picked,
        row,
      });
  };
  group('new', vscode.l10n.t('New'), preselect);
  group('changed', vscode.l10n.t('Changed'), preselect);
  group('onlyInTarget', vscode.l10n.t('Only in target'), false);
  return out;
}

export function previewTitle(what: string, source: string, target: string, rows: readonly PromoteRow[]): string {
  const same = rows.filter((r) => r.kind === 'same').length;
  return vscode.l10n.t('{0}: {1} → {2} ({3} the same, not listed)', what, source, target, same);
}

/** Shows the preview; `diff` when the person asked for the diff editor (the preview is shown again after it). */
export async function showPreview(input: UserInput, title: string, items: PreviewItem[], withDiff: boolean): Promise<PreviewAnswer> {
  const placeHolder = vscode.l10n.t('Pick what to copy, then press Enter');
  // Scripted input (integration tests) answers the same items without the button.
  if (!(input instanceof WindowUserInput)) {
    const picked = await input.showQuickPickMany(items, { title, placeHolder });
    return picked ? { picked: picked.flatMap((i) => (i.row ? [i.row] : [])) } : undefined;
  }
  const qp = vscode.window.createQuickPick<PreviewItem>();
  const diffButton: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('diff'), tooltip: vscode.l10n.t('Open as Diff') };
  Object.assign(qp, { title, placeholder: placeHolder, canSelectMany: true, ignoreFocusOut: true, matchOnDetail: true });
  qp.items = items;
  qp.selectedItems = items.filter((i) => i.picked);
  if (withDiff) qp.buttons = [diffButton];
  return new Promise<PreviewAnswer>((resolve) => {
    let answer: PreviewAnswer;
    qp.onDidTriggerButton(() => {
      answer = 'diff';
      qp.hide();
    });
    qp.onDidAccept(() => {
      answer = { picked: qp.selectedItems.flatMap((i) => (i.row ? [i.row] : [])) };
      qp.hide();
    });
    qp.onDidHide(() => {
      qp.dispose();
      resolve(answer);
    });
    qp.show();
  });
}
