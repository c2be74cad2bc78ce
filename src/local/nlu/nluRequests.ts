// Request bodies of the two entity-recognition operations, checked by hand so that every problem is
// a 400/7003 in the entity-recognition error shape with a message naming it (docs/api.md#entity-recognition-errors).
import { NluError } from '../http/errors';
import { NLU_TEXT_LIMIT, type RecognizedEntity } from './entity';
import { cutText } from './recognizer';
import { isRecord } from '../../core/records';

const INVALID = 'Requested parameters are not valid.';
const MAX_TAG_LENGTH = 64;

const invalid = (problem: string): NluError => new NluError(400, 7003, `${INVALID} ${problem}`);

/** `text` of an infer or add_phrase body: a string with something other than whitespace. */
export function requireText(body: unknown): string {
  const text = isRecord(body) ? body.text : undefined;
  if (typeof text !== 'string' || !text.trim()) throw invalid("'text' is empty.");
  return text;
}

/**
 * An add_phrase body in either shape (docs/api.md#add-phrase): the public JSON array
 * `[{ text, entities: [{ start, end, tag: { name }, token }] }]`, or the older single object
 * `{ text, entities: [{ startIndex, endIndex, tag, token? }] }`. Returns the phrases and which shape came.
 */
export function parsePhrases(body: unknown): { shape: 'array' | 'object'; phrases: Array<{ text: string; entities: RecognizedEntity[] }> } {
  if (!Array.isArray(body)) return { shape: 'object', phrases: [parsePhrase(body)] };
  if (!body.length) throw invalid('The phrase array is empty.');
  if (body.length > MAX_PHRASES) throw invalid(`At most ${MAX_PHRASES} phrases per request (got ${body.length}).`);
  return { shape: 'array', phrases: body.map((item, i) => parsePhrase(item, `[${i}].`, PUBLIC_NAMES)) };
}

const MAX_PHRASES = 1000;
const OLD_NAMES = { start: 'startIndex', end: 'endIndex' } as const;
const PUBLIC_NAMES = { start: 'start', end: 'end' } as const;
type Names = { start: string; end: string };

/**
 * One phrase: `text` and its entities (which may be missing or empty: a phrase without entities). Only the
 * first 2,000 characters of `text` count, so every entity must lie inside them; spans may not overlap; a
 * given token must equal its slice. `at` prefixes messages (`[2].` for the third phrase of an array).
 */
export function parsePhrase(body: unknown, at = '', names: Names = OLD_NAMES): { text: string; entities: RecognizedEntity[] } {
  const raw0 = isRecord(body) ? body.text : undefined;
  if (typeof raw0 !== 'string' || !raw0.trim()) throw invalid(`'${at}text' is empty.`);
  const full = raw0;
  const text = cutText(full);
  const raw = (body as Record<string, unknown>).entities ?? [];
  if (!Array.isArray(raw)) throw invalid(`'${at}entities' must be an array.`);
  const entities = raw.map((item, i) => parseEntity(item, `${at}entities[${i}]`, text, text.length < full.length, names));
  const byStart = entities.map((e, i) => ({ e, i })).sort((a, b) => a.e.startIndex - b.e.startIndex);
  for (let k = 1; k < byStart.length; k++) {
    const [prev, cur] = [byStart[k - 1], byStart[k]];
    if (cur.e.startIndex < prev.e.endIndex) throw invalid(`${at}entities[${cur.i}] overlaps ${at}entities[${prev.i}].`);
  }
  return { text, entities };
}

function parseEntity(item: unknown, at: string, text: string, cut: boolean, names: Names): RecognizedEntity {
  if (!isRecord(item)) throw invalid(`${at} must be an object with ${names.start}, ${names.end} and tag.`);
  const { token } = item;
  const [startIndex, endIndex] = [item[names.start], item[names.end]];
  // The public shape has `tag: { name }`; the older one a plain string. Either is read in both shapes.
  const tag = isRecord(item.tag) ? item.tag.name : item.tag;
  for (const [name, value] of [
    [names.start, startIndex],
    [names.end, endIndex],
  ] as const) {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw invalid(`${at}.${name} must be a non-negative integer.`);
  }
  const [start, end] = [startIndex as number, endIndex as number];
  if (start >= end) throw invalid(`${at}: ${names.start} (${start}) must be less than ${names.end} (${end}).`);
  if (end > text.length) {
    const scope = cut ? `the first ${NLU_TEXT_LIMIT} characters of 'text' (the rest is ignored)` : `'text' (${text.length} characters)`;
    throw invalid(`${at}.${names.end} (${end}) is beyond ${scope}; offsets are UTF-16 code units.`);
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
