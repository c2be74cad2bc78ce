// Cutting a long selection into parts the service reads whole, and mapping the entities it returns
// back to offsets in the part. Plain TypeScript (no vscode): offsets are UTF-16 code units, the unit
// of JavaScript strings, of VS Code's document offsets and of the local service's entities.
import { NLU_MAX_CHARS } from '../../api/values';

export interface TextPart {
  /** Offsets in the whole text: [start, end). */
  start: number;
  end: number;
}

/**
 * The part of `text` starting at `from` that one request can carry: everything left if it fits,
 * otherwise up to the last line break (or else the last space) in the second half of the limit, so
 * an entity is not cut in two between parts; never inside a surrogate pair.
 */
export function nextPart(text: string, from: number, limit = NLU_MAX_CHARS): TextPart {
  if (text.length - from <= limit) return { start: from, end: text.length };
  const window = text.slice(from, from + limit);
  const half = Math.floor(limit / 2);
  const newline = window.lastIndexOf('\n');
  if (newline >= half) return { start: from, end: from + newline + 1 };
  for (let at = window.length - 1; at >= half; at--) {
    if (/\s/.test(window[at])) return { start: from, end: from + at + 1 };
  }
  const code = text.charCodeAt(from + limit - 1);
  return { start: from, end: from + (code >= 0xd800 && code <= 0xdbff ? limit - 1 : limit) };
}

/**
 * Where `entity` lies in `part`, in UTF-16 units. The local service gives UTF-16 offsets; a service that
 * counts code points (as Python does) gives smaller ones after an emoji — detected by the token not
 * matching, and converted. Failing both, the occurrence of the token nearest the given offset is taken.
 */
export function locateEntity(
  part: string,
  entity: { startIndex: number; endIndex: number; token: string },
): { start: number; end: number } | undefined {
  const { startIndex: s, endIndex: e, token } = entity;
  if (!token) return undefined;
  if (part.slice(s, e) === token) return { start: s, end: e };
  const cs = unitIndex(part, s);
  const ce = unitIndex(part, e);
  if (cs !== undefined && ce !== undefined && part.slice(cs, ce) === token) return { start: cs, end: ce };
  let best: number | undefined;
  for (let at = part.indexOf(token); at >= 0; at = part.indexOf(token, at + 1)) {
    if (best === undefined || Math.abs(at - s) < Math.abs(best - s)) best = at;
  }
  return best === undefined ? undefined : { start: best, end: best + token.length };
}

/** UTF-16 index of code point number `cp` in `text`. */
function unitIndex(text: string, cp: number): number | undefined {
  let unit = 0;
  for (let i = 0; i < cp; i++) {
    if (unit >= text.length) return undefined;
    unit += (text.codePointAt(unit) ?? 0) > 0xffff ? 2 : 1;
  }
  return unit;
}
