// File-name rules of the local service (uploads, ZIP entries, seeding) and the suffixing that
// `suffix_added` uses.
import { codePointLabel, escapeInvisible, INVISIBLE_CHARS } from '../../core/visibleText';

const MAX_NAME_BYTES = 255;

/** Why a name cannot be a knowledge-base node name, or undefined when it can. `kind` names it in the message. */
export function fileNameProblem(name: string, kind: 'file' | 'folder' = 'file'): string | undefined {
  const what = `The ${kind} name`;
  if (!name || !name.trim()) return `${what} is empty.`;
  if (/[\\/]/.test(name)) return `${what} "${printable(name)}" contains a path separator; send the name alone.`;
  if (name === '.' || name === '..' || /(^|[\\/])\.\.([\\/]|$)/.test(name)) return `${what} must not be "." or "..".`;
  // eslint-disable-next-line no-control-regex -- control characters are what this rejects
  if (/[\u0000-\u001f\u007f]/.test(name)) return `${what} "${printable(name)}" contains control characters.`;
  // Bidi and zero-width characters let a name pass for another (docs/local-service.md#names).
  const invisible = INVISIBLE_CHARS.exec(name);
  if (invisible) {
    return `${what} "${printable(name)}" contains ${codePointLabel(invisible[0])}, an invisible direction or zero-width character; remove it.`;
  }
  const bytes = Buffer.byteLength(name, 'utf8');
  if (bytes > MAX_NAME_BYTES) return `${what} is ${bytes} bytes long in UTF-8; the limit is ${MAX_NAME_BYTES}.`;
  return undefined;
}

/** "report.pdf", 2 → "report (2).pdf"; names without an extension get the suffix at the end. */
export function suffixedName(name: string, n: number): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? `${name.slice(0, dot)} (${n})${name.slice(dot)}` : `${name} (${n})`;
}

/** The first free "name (n)" among `taken`. */
export function freeName(name: string, taken: (candidate: string) => boolean): string {
  if (!taken(name)) return name;
  for (let n = 1; ; n++) {
    const candidate = suffixedName(name, n);
    if (!taken(candidate)) return candidate;
  }
}

export function normalizeName(name: string): string {
  return name.normalize('NFC');
}

function printable(name: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what this replaces
  const shown = escapeInvisible(name.replace(/[\u0000-\u001f\u007f]/g, '?'));
  return shown.length > 80 ? `${shown.slice(0, 80)}…` : shown;
}
