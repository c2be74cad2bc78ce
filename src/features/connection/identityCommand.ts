import { domainToASCII } from 'node:url';
import { SettingKeys, type SettingKey, type Settings } from '../../platform/settings';
import type { UserInput } from '../../platform/userInput';

interface Field {
  key: SettingKey;
  label: string;
  header: string;
  help: string;
  kind: 'email' | 'id';
}

const FIELDS: Field[] = [
  {
    key: SettingKeys.agentEmail,
    label: 'Agent email',
    header: 'AGENT-EMAIL',
    help: 'The agent acting through the API (creator of uploads, agent feedback)',
    kind: 'email',
  },
  { key: SettingKeys.userEmail, label: 'User email', header: 'USER-EMAIL', help: 'Email associated with the end user', kind: 'email' },
  {
    key: SettingKeys.ownUserId,
    label: 'Own user ID',
    header: 'OWN-USER-ID',
    help: 'Identifies the end user; needed for conversation threads and personal folders',
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
  const items = FIELDS.map((f) => {
    const value = settings.get<string>(f.key, '');
    return { label: f.label, description: value || '(not set)', detail: `${f.header}: ${f.help}`, field: f };
  });
  const pick = await ui.showQuickPick(items, { title: 'Knowledge Desk: Set Identity', placeHolder: 'Which identity header?' });
  if (!pick) return;
  const f = pick.field;
  const value = await ui.showInputBox({
    title: `${f.label} (${f.header})`,
    value: settings.get<string>(f.key, ''),
    prompt: `${f.help}. Leave empty to stop sending it.`,
    validateInput: (v) => {
      if (!v.trim()) return undefined;
      if (f.kind === 'email') return normalizeEmail(v) ? undefined : 'Enter an email address such as agent@example.com';
      return v.length > 256 ? 'At most 256 characters' : undefined;
    },
  });
  if (value === undefined) return;
  const stored = !value.trim() ? '' : f.kind === 'email' ? normalizeEmail(value)! : value.trim();
  await settings.set(f.key, stored);
}
