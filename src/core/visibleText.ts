// Characters that change how text is displayed without being seen: bidirectional controls (U+061C, U+200E/F,
// U+202A–U+202E, U+2066–U+2069) and zero-width characters (U+200B–U+200D, U+2060, U+FEFF). With them a name
// can pass for another ("evil\u202Etxt.exe" is displayed as "evilexe.txt"). The local service refuses them
// in node names; names from a real service are shown with them escaped.

export const INVISIBLE_CHARS = /[\u061c\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]/;
const ALL_INVISIBLE = new RegExp(INVISIBLE_CHARS.source, 'g');

/** `U+202E` for one character. */
export function codePointLabel(char: string): string {
  return `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** `text` with each invisible character written as `\u202E`, so it can be seen; other text unchanged. */
export function escapeInvisible(text: string): string {
  return text.replace(ALL_INVISIBLE, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);
}
