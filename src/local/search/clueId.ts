// Clue ids name a source without server state, so they resolve after a restart: base64url of the JSON array
// [nodeId, pageNo, subTextIndex, first 12 hex characters of the document's extraction hash (textBlob)], and for
// an answer's citation the characters of the passage its sentences span, [start, end) (sentenceClueId): the
// highlight then marks those sentences, not the whole passage.
// Passages are split deterministically from the extraction, so the same hash means the same passages; a
// replaced document gets a new hash and its old clues stop resolving. Q&A sources: base64url of ["qna", faqId].

export interface PassageClue {
  kind: 'passage';
  nodeId: string;
  pageNo: number;
  subTextIndex: number;
  hash: string;
  /** Characters of the passage text the clue names, [start, end); the whole passage when absent. */
  range?: { start: number; end: number };
}

export interface QnaClue {
  kind: 'qna';
  faqId: string;
}

export const CLUE_HASH_CHARS = 12;

export function passageClueId(nodeId: string, pageNo: number, subTextIndex: number, textBlob: string): string {
  return Buffer.from(JSON.stringify([nodeId, pageNo, subTextIndex, textBlob.slice(0, CLUE_HASH_CHARS)])).toString('base64url');
}

/** `clueId` (a passage clue) narrowed to characters [start, end) of its passage; other clues unchanged. */
export function sentenceClueId(clueId: string, start: number, end: number): string {
  const clue = decodeClueId(clueId);
  if (clue?.kind !== 'passage' || !(end > start && start >= 0)) return clueId;
  return Buffer.from(JSON.stringify([clue.nodeId, clue.pageNo, clue.subTextIndex, clue.hash, start, end])).toString('base64url');
}

export function qnaClueId(faqId: string): string {
  return Buffer.from(JSON.stringify(['qna', faqId])).toString('base64url');
}

/** The clue named by `id`, or undefined when it is not one this service made. */
export function decodeClueId(id: string): PassageClue | QnaClue | undefined {
  if (!/^[A-Za-z0-9_-]{1,2000}$/.test(id)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(id, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!Array.isArray(value)) return undefined;
  if (value.length === 2 && value[0] === 'qna' && typeof value[1] === 'string' && value[1]) return { kind: 'qna', faqId: value[1] };
  const [nodeId, pageNo, subTextIndex, hash, start, end] = value as unknown[];
  if ((value.length !== 4 && value.length !== 6) || typeof nodeId !== 'string' || !nodeId) return undefined;
  if (!Number.isSafeInteger(pageNo) || (pageNo as number) < 1) return undefined;
  if (!Number.isSafeInteger(subTextIndex) || (subTextIndex as number) < 0) return undefined;
  if (typeof hash !== 'string' || !/^[0-9a-f]{12}$/.test(hash)) return undefined;
  const clue: PassageClue = { kind: 'passage', nodeId, pageNo: pageNo as number, subTextIndex: subTextIndex as number, hash };
  if (value.length === 6) {
    if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || (start as number) < 0 || (end as number) <= (start as number))
      return undefined;
    clue.range = { start: start as number, end: end as number };
  }
  return clue;
}
