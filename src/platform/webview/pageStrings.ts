// Texts of the shared page pieces (src/webview/shared: code blocks, sanitized answers, banners), in the
// display language. Built with @vscode/l10n's t, not vscode.l10n.t, so the same builder runs in unit tests
// without a host (platform/l10n.ts hands @vscode/l10n VS Code's bundle at activation); `npm run l10n`
// extracts both. Every page receives these merged with its own (webviewHtml.ts).
import * as l10n from '@vscode/l10n';

export function sharedPageStrings() {
  return {
    copy: l10n.t('Copy'),
    copyCode: l10n.t('Copy code'),
    /** {0}: the code block's language, e.g. bash. */
    copyLanguageCode: l10n.t('Copy {0} code'),
    copied: l10n.t('Copied'),
    copyFailed: l10n.t('Copy failed'),
    imageBlocked: l10n.t('Image not loaded: remote images are blocked'),
    image: l10n.t('[image]'),
    /** {0}: the image's alt text. */
    imageWithAlt: l10n.t('[image: {0}]'),
    dismiss: l10n.t('Dismiss'),
  };
}

export type SharedPageStrings = ReturnType<typeof sharedPageStrings>;
