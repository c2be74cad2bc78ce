// "Choose Model for Local Answers": a quick pick of VS Code's language models; the pick is kept in the
// application-scoped knowledgeDesk.local.writerModel and turns knowledgeDesk.local.writer to "vscode", so the local
// service's answers are written by that model over the retrieved passages (docs/local-service.md#writer).
// "Extractive answers (off)" turns the writer off.
import * as vscode from 'vscode';
import { SettingKeys, type Settings } from '../../platform/settings';
import type { UserInput } from '../../platform/userInput';

interface ModelItem extends vscode.QuickPickItem {
  model?: { vendor: string; family: string; id: string };
}

export async function chooseWriterModel(ui: UserInput, settings: Settings): Promise<void> {
  const lm = (vscode as { lm?: typeof vscode.lm }).lm;
  const models = lm?.selectChatModels ? await lm.selectChatModels() : [];
  const current = settings.get<{ id?: string } | undefined>(SettingKeys.localWriterModel, undefined)?.id;
  const on = settings.get<string>(SettingKeys.localWriter, 'off') === 'vscode';
  const items: ModelItem[] = [
    { label: `${on ? '' : '$(check) '}${vscode.l10n.t('Extractive answers (no language model)')}` },
    ...models.map((m) => ({
      label: `${on && m.id === current ? '$(check) ' : ''}${m.name}`,
      description: `${m.vendor} · ${m.family}`,
      detail: m.id,
      model: { vendor: m.vendor, family: m.family, id: m.id },
    })),
  ];
  if (!models.length)
    void vscode.window.showInformationMessage(
      vscode.l10n.t(
        'No language model is available in VS Code. Install or sign in to an extension that provides one, then choose it here.',
      ),
    );
  const picked = await ui.showQuickPick(items, { placeHolder: vscode.l10n.t('The model that writes local answers from your documents') });
  if (!picked) return;
  if (picked.model) await settings.set(SettingKeys.localWriterModel, picked.model);
  await settings.set(SettingKeys.localWriter, picked.model ? 'vscode' : 'off');
}
