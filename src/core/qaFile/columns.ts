// The header row of a Q&A file: column names in English or Japanese, matched case-insensitively.
import * as l10n from '@vscode/l10n';
import type { ColumnMapping, QaField } from './types';

const NAMES: Record<QaField, string[]> = {
  question: ['question', '質問'],
  answer: ['answer', '回答'],
  similarQuestions: ['similar_questions', 'similar_question', '類似質問'],
  hashtags: ['hashtags', 'hashtag', 'ハッシュタグ'],
  status: ['status', 'ステータス'],
  folder: ['folder', 'フォルダ', 'フォルダー'],
  memo: ['memo', 'メモ'],
};

export const QA_FIELDS = Object.keys(NAMES) as QaField[];
export const REQUIRED_FIELDS: readonly QaField[] = ['question', 'answer'];

/** The columns a Q&A file has, for problems (through @vscode/l10n, see rowValidator.ts). */
export const expectedColumnsText = (): string =>
  l10n.t(
    'question (質問) and answer (回答) are required; similar_questions (類似質問), hashtags (ハッシュタグ), status (ステータス), folder (フォルダ) and memo (メモ) are optional',
  );

const IGNORED = /[\s_\-‐－＿]/g;

/** "Similar Questions", "similar-questions", "SIMILAR_QUESTIONS" and "ｓｉｍｉｌａｒ＿ｑｕｅｓｔｉｏｎｓ" are one name. */
export function headerKey(name: string): string {
  return name
    .replace(/^\uFEFF/, '')
    .normalize('NFKC')
    .replace(IGNORED, '')
    .toLowerCase();
}

const BY_KEY = new Map<string, QaField>(QA_FIELDS.flatMap((f) => NAMES[f].map((n) => [headerKey(n), f] as const)));

/**
 * Maps header names to fields. The first column of a name wins; `unknown` lists the non-empty headers
 * that are not used (unrecognised names and repeats); `missing` lists required fields with no column.
 */
export function detectMapping(headers: string[]): { mapping: ColumnMapping; unknown: string[]; missing: QaField[] } {
  const mapping: ColumnMapping = {};
  const unknown: string[] = [];
  headers.forEach((header, index) => {
    const field = BY_KEY.get(headerKey(header));
    if (field && mapping[field] === undefined) mapping[field] = index;
    else if (header.trim()) unknown.push(header);
  });
  return { mapping, unknown, missing: REQUIRED_FIELDS.filter((f) => mapping[f] === undefined) };
}

/** Spreadsheet column letters: 0 → A, 26 → AA. */
export function columnLetter(index: number): string {
  let n = index + 1;
  let s = '';
  while (n > 0) {
    s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
    n = Math.floor((n - 1) / 26);
  }
  return s;
}
