// The rules of registerSchema (faqSchemas.ts) for a row of an uploaded Q&A file, without zod. Checked through
// zod, an upload moved about 12 KB per row into the old generation (test/unit/local/faqUploadMemory.test.ts), and a
// 100,000-row file grew the service by 460 MB while keeping 130 MB; without it, under 1 KB per row (issue 23).
// It only accepts: a row it does not accept goes to registerSchema, which accepts it the same way or says why
// not, so the messages and the outcome stay registerSchema's (test/unit/local/faqFileRowFields.test.ts
// compares both on every kind of row).
import { charCount } from '../../core/charCount';
import { normalizeHashtag } from '../../core/hashtags';
import { QA_LIMITS } from '../../core/qaFile/limits';
import type { QaRow } from '../../core/qaFile/types';
import { uniqueBy } from '../../core/uniqueBy';
import { hashtagKey, questionKey } from './faqRecord';
import type { FaqFields } from './faqWrites';

const fits = (text: string, max: number): boolean => charCount(text) <= max;

/** registerSchema's output for `row` when it is valid; undefined when registerSchema must decide. */
export function fileRowFields(row: QaRow): FaqFields | undefined {
  const L = QA_LIMITS;
  const question = row.question.trim();
  const answer = row.answer.trim();
  if (!question || !answer || !fits(question, L.question) || !fits(answer, L.answer)) return undefined;
  if (row.status !== 'on' && row.status !== 'off') return undefined;
  if (row.similarQuestions.length > L.similarQuestions || row.hashtags.length > L.hashtags) return undefined;
  if (!row.similarQuestions.every((s) => typeof s === 'string' && fits(s.trim(), L.similarQuestion))) return undefined;
  if (!row.hashtags.every((s) => typeof s === 'string' && fits(normalizeHashtag(s), L.hashtag))) return undefined;
  const memo = row.memo?.trim();
  const folder = row.folder?.trim();
  if ((memo !== undefined && !fits(memo, L.memo)) || (folder !== undefined && !fits(folder, L.folder))) return undefined;
  // The same keys, in the same order, as registerSchema's output for { ...row, memo: null, folder: null }.
  return {
    question,
    answer,
    status: row.status,
    similarQuestions: uniqueBy(row.similarQuestions.map((s) => s.trim()).filter(Boolean), questionKey),
    hashtags: uniqueBy(row.hashtags.map(normalizeHashtag).filter(Boolean), hashtagKey),
    memo,
    folder,
  };
}
