// The promote preview: one QuickPick with a check box per item, grouped by kind (New, Changed with the fields
// that differ, Only in target, unpicked: picking one there asks to delete it), the unchanged ones counted in the
// title, and an "Open as Diff" button for Q&As.
import * as vscode from 'vscode';
import type { UserInput } from '../../platform/userInput';
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

/**
 * Shows the preview; `diff` when the person asked for the diff editor (the preview is shown again after it). A copy
 * has its changes picked and asks what to copy; a compare has nothing picked and says what Enter would do.
 */
export async function showPreview(
  input: UserInput,
  title: string,
  items: PreviewItem[],
  options: { mode: 'copy' | 'compare'; target: string; withDiff: boolean },
): Promise<PreviewAnswer> {
  const placeHolder =
    options.mode === 'copy'
      ? vscode.l10n.t('Pick what to copy to {0}, then press Enter', options.target)
      : vscode.l10n.t('Differences: pick any to copy to {0} and press Enter, or Escape to copy nothing', options.target);
  const diffButton: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('diff'), tooltip: vscode.l10n.t('Open as Diff') };
  const answer = await input.showQuickPickManyWithButtons(items, {
    title,
    placeHolder,
    matchOnDetail: true,
    buttons: options.withDiff ? [diffButton] : [],
  });
  if (!answer) return undefined;
  if ('button' in answer) return 'diff';
  return { picked: answer.picked.flatMap((i) => (i.row ? [i.row] : [])) };
}
