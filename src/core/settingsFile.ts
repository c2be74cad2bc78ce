// Reads a VS Code settings file (JSON with comments and trailing commas) to find which of the given
// settings it sets. VS Code leaves application-scoped values of a workspace out of what extensions can
// inspect, so telling the user that a repository tried to set one needs the file itself.

/** Setting ids set in `text`: top-level keys, or under `settings` for a `.code-workspace` file. */
export function settingsSetIn(text: string, ids: readonly string[], kind: 'settings' | 'workspace' = 'settings'): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(stripJsonc(text));
  } catch {
    return [];
  }
  const root = kind === 'workspace' ? (parsed as { settings?: unknown } | null)?.settings : parsed;
  if (!root || typeof root !== 'object' || Array.isArray(root)) return [];
  const keys = new Set(Object.keys(root));
  return ids.filter((id) => keys.has(id));
}

/** Removes comments and trailing commas outside strings, keeping everything else as it is. */
export function stripJsonc(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j;
    } else if (ch === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (ch === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 1;
    } else if (ch === ',') {
      let j = i + 1;
      while (j < text.length && /\s/.test(text[j])) j++;
      if (text[j] !== '}' && text[j] !== ']') out += ch;
    } else {
      out += ch;
    }
  }
  return out;
}
