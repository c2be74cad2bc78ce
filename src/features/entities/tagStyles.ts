// One colour per tag: a translucent background with a firmer border of the same hue, readable on light
// and dark themes alike (the text keeps the theme's own colour). Tags taught through add_phrase get a
// colour from a second palette, chosen by a hash of the name so it stays the same between sessions.
import * as vscode from 'vscode';

/** The recogniser's own tags: a colour each, and what it marks (for the legend and the hover). */
const BUILTIN: Record<string, { color: string; meaning: () => string }> = {
  PERSON: { color: '#3b82f6', meaning: () => vscode.l10n.t('names of people') },
  ORGANIZATION: { color: '#a855f7', meaning: () => vscode.l10n.t('companies and organisations') },
  LOCATION: { color: '#16a34a', meaning: () => vscode.l10n.t('places: cities, countries, regions') },
  DATE: { color: '#f97316', meaning: () => vscode.l10n.t('dates and times') },
  EMAIL: { color: '#0d9488', meaning: () => vscode.l10n.t('email addresses') },
  PHONE: { color: '#db2777', meaning: () => vscode.l10n.t('phone numbers') },
  URL: { color: '#dc2626', meaning: () => vscode.l10n.t('web addresses') },
  MONEY: { color: '#ca8a04', meaning: () => vscode.l10n.t('amounts of money') },
};
const EXTRA = ['#0891b2', '#65a30d', '#9333ea', '#b45309', '#4f46e5', '#be123c', '#0f766e', '#7c3aed'];

export function tagColor(tag: string): string {
  const known = BUILTIN[tag.toUpperCase()]?.color;
  if (known) return known;
  let h = 0;
  for (let i = 0; i < tag.length; i++) h = (h * 31 + tag.charCodeAt(i)) >>> 0;
  return EXTRA[h % EXTRA.length];
}

const rgba = (hex: string, alpha: number): string => {
  const n = parseInt(hex.slice(1), 16);
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`;
};

export function createTagDecoration(tag: string): vscode.TextEditorDecorationType {
  const color = tagColor(tag);
  return vscode.window.createTextEditorDecorationType({
    borderWidth: '1px',
    borderStyle: 'solid',
    borderRadius: '3px',
    overviewRulerColor: rgba(color, 0.8),
    overviewRulerLane: vscode.OverviewRulerLane.Center,
    rangeBehavior: vscode.DecorationRangeBehavior.ClosedClosed,
    light: { backgroundColor: rgba(color, 0.14), borderColor: rgba(color, 0.75) },
    dark: { backgroundColor: rgba(color, 0.24), borderColor: rgba(color, 0.85) },
  });
}

/** A coloured square for Markdown hovers and tooltips (needs `supportHtml`). */
export function tagSwatch(tag: string): string {
  return `<span style="color:${tagColor(tag)};">■</span>`;
}

/** What a tag's colour marks, for the legend and the hover; a tag taught through Teach Phrase… says so. */
export function tagMeaning(tag: string): string {
  return BUILTIN[tag.toUpperCase()]?.meaning() ?? vscode.l10n.t('a tag of your project (taught with Teach Phrase…)');
}
