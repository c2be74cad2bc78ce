// Numbers, sizes and dates in the display language for modules that also run in plain Node (no vscode):
// src/platform/l10n.ts sets the language at activation; without a host (unit tests) it is English.
// English output is what the extension always showed (no digit grouping in sizes, ISO-like job dates).

let language = 'en';

export function setFormatLanguage(value: string | undefined): void {
  language = value || 'en';
}

const isEnglish = (locale: string): boolean => /^en\b/i.test(locale);

export function numberText(value: number, options?: Intl.NumberFormatOptions, locale = language): string {
  return new Intl.NumberFormat(locale, options).format(value);
}

/** "512 B", "1.5 KB", "12 KB", "3.4 MB", "1.25 GB", with the language's decimal sign. */
export function sizeText(bytes: number, locale = language): string {
  // Rounded by toFixed as always (English unchanged), then written with the language's digits and decimal sign.
  const n = (value: number, digits: number): string =>
    new Intl.NumberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false }).format(
      Number(value.toFixed(digits)),
    );
  if (bytes < 1024) return `${n(bytes, 0)} B`;
  if (bytes < 1024 * 1024) return `${n(bytes / 1024, bytes < 10 * 1024 ? 1 : 0)} KB`;
  if (bytes < 1024 ** 3) return `${n(bytes / 1024 / 1024, 1)} MB`;
  return `${n(bytes / 1024 ** 3, 2)} GB`;
}

/** "2025-03-01 14:05" in English (local time), the language's short numeric date and time otherwise. */
export function shortDateTimeText(date: Date, locale = language): string {
  if (isEnglish(locale)) {
    const p = (n: number): string => String(n).padStart(2, '0');
    return `${date.getFullYear()}-${p(date.getMonth() + 1)}-${p(date.getDate())} ${p(date.getHours())}:${p(date.getMinutes())}`;
  }
  return new Intl.DateTimeFormat(locale, { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' }).format(
    date,
  );
}

/** Sentences one after another: a space after a Western full stop, none after a Japanese one (「。」). */
export function joinSentences(first: string, ...rest: string[]): string {
  return rest.reduce((text, next) => text + (/[。！？]$/.test(text) ? '' : ' ') + next, first);
}
