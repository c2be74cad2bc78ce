// Request bodies of the two entity-recognition operations, checked by hand so that every problem is
// a 400/7003 in the entity-recognition error shape with a message naming it (docs/api.md#entity-recognition-errors).
import { NluError } from '../http/errors';
import { NLU_TEXT_LIMIT, type RecognizedEntity } from './entity';
import { cutText } from './recognizer';

const INVALID = 'Requested parameters are not valid.';
const MAX_TAG_LENGTH = 64;

const invalid = (problem: string): NluError => new NluError(400, 7003, `${INVALID} ${problem}`);

/** `text` of an infer or add_phrase body: a string with something other than whitespace. */
export function requireText(body: unknown): string {
  const text = isObject(body) ? body.text : undefined;
  if (typeof text !== 'string' || !text.trim()) throw invalid("'text' is empty.");
  return text;
}

/**
 * An add_phrase body: `{ text, entities: [{ startIndex, endIndex, tag, token? }] }` (entities may be
 * missing or empty: a phrase without entities). Only the first 2,000 characters of `text` count, so
 * every entity must lie inside them; spans may not overlap; a given token must equal its slice.
 */
export function parsePhrase(body: unknown): { text: string; entities: RecognizedEntity[] } {
  const full = requireText(body);
  const text = cutText(full);
  const raw = (body as Record<string, unknown>).entities ?? [];
  if (!Array.isArray(raw)) throw invalid("'entities' must be an array.");
  const entities = raw.map((item, i) => parseEntity(item, `entities[${i}]`, text, text.length < full.length));
  const byStart = entities.map((e, i) => ({ e, i })).sort((a, b) => a.e.startIndex - b.e.startIndex);
  for (let k = 1; k < byStart.length; k++) {
    const [prev, cur] = [byStart[k - 1], byStart[k]];
    if (cur.e.startIndex < prev.e.endIndex) throw invalid(`entities[${cur.i}] overlaps entities[${prev.i}].`);
  }
  return { text, entities };
}

function parseEntity(item: unknown, at: string, text: string, cut: boolean): RecognizedEntity {
  if (!isObject(item)) throw invalid(`${at} must be an object with startIndex, endIndex and tag.`);
  const { startIndex, endIndex, tag, token } = item;
  for (const [name, value] of [
    ['startIndex', startIndex],
    ['endIndex', endIndex],
  ] as const) {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw invalid(`${at}.${name} must be a non-negative integer.`);
  }
  const [start, end] = [startIndex as number, endIndex as number];
  if (start >= end) throw invalid(`${at}: startIndex (${start}) must be less than endIndex (${end}).`);
  if (end > text.length) {
    const scope = cut ? `the first ${NLU_TEXT_LIMIT} characters of 'text' (the rest is ignored)` : `'text' (${text.length} characters)`;
    throw invalid(`${at}.endIndex (${end}) is beyond ${scope}; offsets are UTF-16 code units.`);
  }
  if (typeof tag !== 'string' || !tag.trim()) throw invalid(`${at}.tag is empty.`);
  if (tag.trim().length > MAX_TAG_LENGTH) throw invalid(`${at}.tag is longer than ${MAX_TAG_LENGTH} characters.`);
  const slice = text.slice(start, end);
  if (token !== undefined && token !== null && token !== slice) {
    throw invalid(`${at}.token ${JSON.stringify(token)} is not the text at ${start}–${end} (${JSON.stringify(slice)}).`);
  }
  if (!slice.trim()) throw invalid(`${at} covers only whitespace.`);
  return { startIndex: start, endIndex: end, tag: tag.trim(), token: slice };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
