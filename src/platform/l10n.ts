// Runtime strings are looked up in l10n/bundle.l10n.<language>.json. Modules that import vscode call
// vscode.l10n.t; the few that also run in plain Node (error messages, identity prompts: unit-tested without
// a host) call @vscode/l10n's t, which reads the same bundle once it is handed over here at activation.
// `npm run l10n` extracts both kinds of calls into l10n/bundle.l10n.json.
import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';
import { setFormatLanguage, sizeText } from './intlFormat';

/** Gives @vscode/l10n the bundle VS Code loaded for the display language (none for English), and intlFormat the language. */
export function shareL10nBundle(): void {
  const bundle = vscode.l10n.bundle;
  if (bundle) l10n.config({ contents: bundle });
  setFormatLanguage(displayLanguage());
}

/** The display language, for Intl formatting of what the extension shows. */
export function displayLanguage(): string {
  return vscode.env.language || 'en';
}

export function formatNumber(value: number, options?: Intl.NumberFormatOptions): string {
  return new Intl.NumberFormat(displayLanguage(), options).format(value);
}

export function formatDateTime(
  value: Date | number,
  options: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' },
): string {
  return new Intl.DateTimeFormat(displayLanguage(), options).format(value);
}

/** A file size ("1.5 KB") with the display language's decimal sign; English as it always was. */
export function formatSize(bytes: number): string {
  return sizeText(bytes, displayLanguage());
}
