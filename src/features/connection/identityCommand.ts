import { domainToASCII } from 'node:url';
// @vscode/l10n, not vscode: this module runs in plain Node in unit tests (src/platform/l10n.ts hands it the bundle).
import * as l10n from '@vscode/l10n';
import { SettingKeys, type SettingKey, type Settings } from '../../platform/settings';
import type { UserInput } from '../../platform/userInput';

interface Field {
  key: SettingKey;
  label: string;
  header: string;
  help: string;
  kind: 'email' | 'id';
}

// A function: the texts are looked up when the command runs, after activation handed over the bundle.
const fields = (): Field[] => [
  {
    key: SettingKeys.agentEmail,
    label: l10n.t('Agent email'),
    header: 'AGENT-EMAIL',
    help: l10n.t('The agent acting through the API (creator of uploads, agent feedback)'),
    kind: 'email',
  },
  {
    key: SettingKeys.userEmail,
    label: l10n.t('User email'),
    header: 'USER-EMAIL',
    help: l10n.t('Email associated with the end user'),
    kind: 'email',
  },
  {
    key: SettingKeys.ownUserId,
    label: l10n.t('Own user ID'),
    header: 'OWN-USER-ID',
    help: l10n.t('Identifies the end user; needed for conversation threads and personal folders'),
    kind: 'id',
  },
];

/** Normalises an email for a header: trimmed, internationalised domain in punycode; undefined if invalid. */
export function normalizeEmail(value: string): string | undefined {
  const v = value.trim();
  const at = v.lastIndexOf('@');
  if (at <= 0 || at === v.length - 1) return undefined;
  const local = v.slice(0, at);
  const domain = domainToASCII(v.slice(at + 1));
  if (!domain || !/^[\x21-\x7e]+$/.test(local) || !domain.includes('.')) return undefined;
  return `${local}@${domain}`;
}

/** Set Identity: the three identity headers, kept in settings (they are not secrets). */
export async function setIdentity(ui: UserInput, settings: Settings): Promise<void> {
  const items = fields().map((f) => {
    const value = settings.get<string>(f.key, '');
    return { label: f.label, description: value || l10n.t('(not set)'), detail: `${f.header}: ${f.help}`, field: f };
  });
  const pick = await ui.showQuickPick(items, {
    title: l10n.t('Knowledge Desk: Set Identity'),
    placeHolder: l10n.t('Which identity header?'),
  });
  if (!pick) return;
  const f = pick.field;
  const value = await ui.showInputBox({
    title: `${f.label} (${f.header})`,
    value: settings.get<string>(f.key, ''),
    prompt: l10n.t('{0}. Leave empty to stop sending it.', f.help),
    validateInput: (v) => {
      if (!v.trim()) return undefined;
      if (f.kind === 'email') return normalizeEmail(v) ? undefined : l10n.t('Enter an email address such as {0}', 'agent@example.com');
      return v.length > 256 ? l10n.t('At most {0} characters', 256) : undefined;
    },
  });
  if (value === undefined) return;
  const stored = !value.trim() ? '' : f.kind === 'email' ? normalizeEmail(value)! : value.trim();
  await settings.set(f.key, stored);
}
