// The page's texts, in the display language: the host renders them into <body data-strings> (webviewHtml.ts,
// WebviewPage.strings), each one a vscode.l10n.t call, so `npm run l10n` extracts them with the rest of the
// extension and the page itself holds no English. Numbers, dates and sizes follow <html lang>, which the host
// sets to VS Code's display language.

/** The page's table of texts (its `<Page>Strings` type from the feature's protocol.ts). */
export function pageStrings<T extends object>(doc: Document = document): T {
  try {
    const parsed: unknown = JSON.parse(doc.body.dataset.strings ?? '{}');
    return (parsed && typeof parsed === 'object' ? parsed : {}) as T;
  } catch {
    return {} as T;
  }
}

/** Fills `{0}`, `{1}`… (or `{name}`) as vscode.l10n.t does; a placeholder without a value stays as it is. */
export function format(template: string, ...args: Array<string | number | Record<string, string | number>>): string {
  const named = args.length === 1 && typeof args[0] === 'object' ? args[0] : undefined;
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => {
    const value = named ? named[key] : args[Number(key)];
    return value === undefined || typeof value === 'object' ? whole : String(value);
  });
}

/** The display language the host gave the page (`<html lang>`), for Intl. */
export function pageLanguage(doc: Document = document): string {
  return doc.documentElement.lang || 'en';
}

export function formatNumber(value: number, options?: Intl.NumberFormatOptions, doc?: Document): string {
  return new Intl.NumberFormat(pageLanguage(doc), options).format(value);
}

export function formatDateTime(
  value: Date | number,
  options: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' },
  doc?: Document,
): string {
  return new Intl.DateTimeFormat(pageLanguage(doc), options).format(value);
}
