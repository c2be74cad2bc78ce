// Rules of the Q&A form, shared by the page (errors next to the fields) and the host (which refuses
// to send an invalid draft). No vscode and no DOM here.
// (The page bundle imports this file: no imports from src/api, whose types need Node; src/core is fine.)
import { charCount } from '../../../core/charCount';
import { normalizeHashtags } from '../../../core/hashtags';
import { QA_LIMITS } from '../../../core/qaFile/limits';
import type { QaFields, QaUpdateFields } from '../../../core/qaFields';
import type { FieldErrors, QaDraft } from './protocol';
import type { QaEditorStrings } from './qaEditorStrings';

/** The body of "register". */
export type RegisterBody = QaFields;

/** The changed fields of "update" (UpdateFaq without id). */
export type UpdateFields = QaUpdateFields;

export function emptyDraft(): QaDraft {
  return {
    question: '',
    similarQuestions: [],
    answer: '',
    hashtags: [],
    status: 'on',
    folder: '',
    allowOtherAgentsView: true,
    allowOtherUsersView: true,
    memo: '',
  };
}

/** What is sent: trimmed texts, empty similar questions dropped, hashtags cleaned. The answer is kept as typed. */
export function normalizeDraft(d: QaDraft): QaDraft {
  return {
    ...d,
    question: d.question.trim(),
    similarQuestions: unique(d.similarQuestions.map((q) => q.trim()).filter(Boolean)),
    hashtags: normalizeHashtags(d.hashtags),
    folder: d.folder.trim(),
    memo: d.memo.trim(),
  };
}

/**
 * The error messages in the display language (qaEditorStrings(): the host builds them, the page receives them)
 * and how numbers are written in it.
 */
export interface DraftTexts {
  strings: Pick<
    QaEditorStrings,
    | 'enterQuestion'
    | 'enterAnswer'
    | 'questionTooLong'
    | 'answerTooLong'
    | 'similarTooLong'
    | 'folderTooLong'
    | 'memoTooLong'
    | 'tooManySimilar'
    | 'tooManyHashtags'
    | 'hashtagTooLong'
  >;
  formatNumber(n: number): string;
}

/** Fills {0}, {1}… as l10n.t does (the templates are already translated). */
function fill(template: string, ...args: Array<string | number>): string {
  return template.replace(/\{(\d+)\}/g, (whole, i: string) => (args[Number(i)] === undefined ? whole : String(args[Number(i)])));
}

/** Errors by field (see FieldErrors); empty when the draft may be sent. Validates the normalized draft. */
export function validateDraft(draft: QaDraft, options: { isNew: boolean }, texts: DraftTexts): FieldErrors {
  const d = normalizeDraft(draft);
  const s = texts.strings;
  const fmt = texts.formatNumber;
  const errors: FieldErrors = {};
  const tooLong = (field: string, value: string, max: number, template: string, ...before: Array<string | number>): void => {
    const n = charCount(value);
    if (n > max) errors[field] = fill(template, ...before, fmt(n), fmt(max));
  };
  if (!d.question) errors.question = s.enterQuestion;
  else tooLong('question', d.question, QA_LIMITS.question, s.questionTooLong);
  if (!d.answer.trim()) errors.answer = s.enterAnswer;
  else tooLong('answer', d.answer, QA_LIMITS.answer, s.answerTooLong);
  if (d.similarQuestions.length > QA_LIMITS.similarQuestions) {
    errors.similarQuestions = fill(s.tooManySimilar, fmt(d.similarQuestions.length), fmt(QA_LIMITS.similarQuestions));
  }
  draft.similarQuestions.forEach((q, i) =>
    tooLong(`similarQuestions.${i}`, q.trim(), QA_LIMITS.similarQuestion, s.similarTooLong, fmt(i + 1)),
  );
  if (d.hashtags.length > QA_LIMITS.hashtags) errors.hashtags = fill(s.tooManyHashtags, fmt(d.hashtags.length), fmt(QA_LIMITS.hashtags));
  const longTag = d.hashtags.find((t) => charCount(t) > QA_LIMITS.hashtag);
  if (longTag !== undefined && !errors.hashtags)
    errors.hashtags = fill(s.hashtagTooLong, [...longTag].slice(0, 20).join(''), fmt(QA_LIMITS.hashtag));
  tooLong('folder', d.folder, QA_LIMITS.folder, s.folderTooLong);
  if (options.isNew) tooLong('memo', d.memo, QA_LIMITS.memo, s.memoTooLong);
  return errors;
}

export function hasErrors(errors: FieldErrors): boolean {
  return Object.keys(errors).length > 0;
}

/** The body of "register" for a new Q&A (with memo; empty optional fields left out). */
export function registerBody(draft: QaDraft): RegisterBody {
  const d = normalizeDraft(draft);
  return {
    question: d.question,
    answer: d.answer,
    status: d.status,
    ...(d.similarQuestions.length ? { similarQuestions: d.similarQuestions } : {}),
    ...(d.hashtags.length ? { hashtags: d.hashtags } : {}),
    ...(d.memo ? { memo: d.memo } : {}),
    ...(d.folder ? { folder: d.folder } : {}),
    allowOtherAgentsView: d.allowOtherAgentsView,
    allowOtherUsersView: d.allowOtherUsersView,
  };
}

/** Only the fields that differ from `base` (similar_questions in snake_case, as "update" wants it). */
export function changedFields(base: QaDraft, draft: QaDraft): UpdateFields {
  const b = normalizeDraft(base);
  const d = normalizeDraft(draft);
  const out: UpdateFields = {};
  if (d.question !== b.question) out.question = d.question;
  if (!sameList(d.similarQuestions, b.similarQuestions)) out.similar_questions = d.similarQuestions;
  if (d.answer !== b.answer) out.answer = d.answer;
  if (!sameList(d.hashtags, b.hashtags)) out.hashtags = d.hashtags;
  if (d.status !== b.status) out.status = d.status;
  if (d.folder !== b.folder) out.folder = d.folder;
  if (d.allowOtherAgentsView !== b.allowOtherAgentsView) out.allowOtherAgentsView = d.allowOtherAgentsView;
  if (d.allowOtherUsersView !== b.allowOtherUsersView) out.allowOtherUsersView = d.allowOtherUsersView;
  return out;
}

export function sameDraft(a: QaDraft, b: QaDraft): boolean {
  return (Object.keys(a) as Array<keyof QaDraft>).every((k) => sameValue(a[k], b[k]));
}

/**
 * A newer version of the saved Q&A arrived: fields the user has not touched follow it, edited
 * fields keep the user's text.
 */
export function rebaseDraft(oldBase: QaDraft, newBase: QaDraft, draft: QaDraft): QaDraft {
  const out = { ...draft } as Record<keyof QaDraft, unknown>;
  for (const k of Object.keys(newBase) as Array<keyof QaDraft>) if (sameValue(draft[k], oldBase[k])) out[k] = newBase[k];
  return out as QaDraft;
}

function sameValue(a: unknown, b: unknown): boolean {
  return Array.isArray(a) && Array.isArray(b) ? sameList(a, b) : a === b;
}

function sameList(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
