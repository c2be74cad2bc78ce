// Turns the cells of one record into a QaRow, or into row-numbered problems. The problems' texts go through
// @vscode/l10n: the extension hands it VS Code's bundle (src/platform/l10n.ts), so the Problems panel is in the
// display language; elsewhere (unit tests, dist/mcp.js) they are English.
import * as l10n from '@vscode/l10n';
import { charsOver } from '../charCount';
import { hashtagConcern, parseHashtags } from '../hashtags';
import { columnLetter } from './columns';
import { qaFieldName } from './fieldNames';
import type { QaLimits } from './limits';
import { normalizeQuestion, parseStatus, splitSimilarQuestions, statusValuesText, unescapeInjection } from './text';
import type { ColumnMapping, QaField, QaRow, RowProblem } from './types';

export class RowValidator {
  readonly rows: QaRow[] = [];
  /** normalizeQuestion of each row's question, parallel to rows. */
  readonly keys: string[] = [];
  /** Data records seen (blank lines excluded). */
  records = 0;
  willUpdate = 0;
  duplicates = 0;
  private readonly firstRow = new Map<string, number>();
  /** Column of each field, -1 when not mapped (plain fields: this runs once per cell). */
  private readonly iQuestion: number;
  private readonly iAnswer: number;
  private readonly iSimilar: number;
  private readonly iHashtags: number;
  private readonly iStatus: number;
  private readonly iFolder: number;
  private readonly iMemo: number;
  private errors = 0;

  constructor(
    mapping: ColumnMapping,
    private readonly width: number,
    private readonly limits: QaLimits,
    private readonly problems: RowProblem[],
    private readonly existing?: ReadonlySet<string>,
  ) {
    this.iQuestion = mapping.question ?? -1;
    this.iAnswer = mapping.answer ?? -1;
    this.iSimilar = mapping.similarQuestions ?? -1;
    this.iHashtags = mapping.hashtags ?? -1;
    this.iStatus = mapping.status ?? -1;
    this.iFolder = mapping.folder ?? -1;
    this.iMemo = mapping.memo ?? -1;
  }

  add(cells: string[], row: number): void {
    this.records++;
    this.errors = 0;
    const limits = this.limits;
    const question = text(cells, this.iQuestion);
    const answer = text(cells, this.iAnswer);
    const q = question ?? '';
    if (!question) this.required(cells, row, 'question', this.iQuestion, q);
    if (!answer) this.required(cells, row, 'answer', this.iAnswer, q);
    this.tooLong(row, 'question', q, limits.question, q);
    if (answer) this.tooLong(row, 'answer', answer, limits.answer, q);

    const statusCell = text(cells, this.iStatus);
    const status = statusCell ? parseStatus(statusCell) : 'on';
    if (!status)
      this.error(row, 'status', 'invalid-status', l10n.t('Status "{0}" is not valid: use {1}.', statusCell ?? '', statusValuesText()), q);

    const similarCell = text(cells, this.iSimilar);
    // Untrimmed: a line break at the end of the cell says `|` is text (splitSimilarQuestions).
    const similarQuestions = similarCell ? splitSimilarQuestions(untrimmed(cells[this.iSimilar])) : [];
    this.list(row, 'similarQuestions', similarQuestions, limits.similarQuestion, limits.similarQuestions, q);
    const hashtagCell = text(cells, this.iHashtags);
    const hashtags = hashtagCell ? parseHashtags(hashtagCell) : [];
    this.list(row, 'hashtags', hashtags, limits.hashtag, limits.hashtags, q);
    for (const tag of hashtags) this.hashtagConcern(row, tag, q);

    const folder = text(cells, this.iFolder);
    if (folder) this.tooLong(row, 'folder', folder, limits.folder, q);
    const memo = text(cells, this.iMemo);
    if (memo) this.tooLong(row, 'memo', memo, limits.memo, q);

    if (cells.length > this.width) this.extraCells(cells, row, q);
    if (this.errors > 0) return;

    const key = normalizeQuestion(q);
    const first = this.firstRow.get(key);
    if (first !== undefined) {
      this.duplicates++;
      this.error(row, 'question', 'duplicate-in-file', l10n.t('Same question as row {0}; only row {0} is imported.', first), q);
      return;
    }
    this.firstRow.set(key, row);
    const qa: QaRow = { row, question: q, answer: answer!, similarQuestions, hashtags, status: status! };
    if (folder) qa.folder = folder;
    if (memo) qa.memo = memo;
    if (this.iStatus >= 0 && !statusCell) qa.statusBlank = true;
    this.rows.push(qa);
    this.keys.push(key);
    // What an update changes is said by the dry run's plan (importPlan.ts), which sees the existing Q&A.
    if (this.existing?.has(key)) this.willUpdate++;
  }

  private required(cells: string[], row: number, field: 'question' | 'answer', i: number, q: string): void {
    const n = cells.length;
    const column = columnLetter(i);
    const question = field === 'question';
    const message =
      i < n
        ? question
          ? l10n.t('The question is empty.')
          : l10n.t('The answer is empty.')
        : question
          ? n === 1
            ? l10n.t('The question is empty (the row has {0} cell; the question is in column {1}).', n, column)
            : l10n.t('The question is empty (the row has {0} cells; the question is in column {1}).', n, column)
          : n === 1
            ? l10n.t('The answer is empty (the row has {0} cell; the answer is in column {1}).', n, column)
            : l10n.t('The answer is empty (the row has {0} cells; the answer is in column {1}).', n, column);
    this.error(row, field, `missing-${field}`, message, q);
  }

  /** `item`: the 1-based position of a list item (similar questions, hashtags). */
  private tooLong(row: number, field: QaField, text: string, limit: number, q: string, item?: number): void {
    if (text.length <= limit) return;
    const n = charsOver(text, limit);
    if (n !== undefined)
      this.error(
        row,
        field,
        'too-long',
        item === undefined
          ? l10n.t(
              'The {0} is {1} characters long; the limit is {2}.',
              qaFieldName(field),
              n.toLocaleString('en-US'),
              limit.toLocaleString('en-US'),
            )
          : l10n.t(
              'The {0} {1} is {2} characters long; the limit is {3}.',
              ordinal(item),
              qaFieldName(field),
              n.toLocaleString('en-US'),
              limit.toLocaleString('en-US'),
            ),
        q,
      );
  }

  private list(row: number, field: QaField, items: string[], each: number, most: number, q: string): void {
    if (items.length > most)
      this.error(
        row,
        field,
        'too-many',
        field === 'hashtags'
          ? l10n.t('{0} hashtags; at most {1} are allowed.', items.length, most)
          : l10n.t('{0} similar questions; at most {1} are allowed.', items.length, most),
        q,
      );
    for (let k = 0; k < items.length; k++) this.tooLong(row, field, items[k], each, q, k + 1);
  }

  /** A tag the cell still yields with a space or an odd character: imported as is, but said (a missed separator?). */
  private hashtagConcern(row: number, tag: string, q: string): void {
    const concern = hashtagConcern(tag);
    if (!concern) return;
    this.problems.push({
      row,
      column: 'hashtags',
      severity: 'warning',
      code: 'hashtag-text',
      message:
        concern.kind === 'space'
          ? l10n.t('The hashtag "{0}" contains a space; separate hashtags with commas (,), semicolons (;), 、 or line breaks.', tag)
          : l10n.t(
              'The hashtag "{0}" contains "{1}", which hashtags rarely have; separate hashtags with commas (,), semicolons (;), 、 or line breaks.',
              tag,
              concern.char,
            ),
      ...(q ? { question: q } : {}),
    });
  }

  private extraCells(cells: string[], row: number, q: string): void {
    const extra: string[] = [];
    for (let i = this.width; i < cells.length; i++) if (cells[i].trim()) extra.push(columnLetter(i));
    if (extra.length) {
      this.problems.push({
        row,
        severity: 'warning',
        code: 'extra-cells',
        message:
          extra.length === 1
            ? l10n.t(
                'The row has {0} cells but the header has {1}; the extra cell in column {2} is ignored.',
                cells.length,
                this.width,
                extra[0],
              )
            : l10n.t(
                'The row has {0} cells but the header has {1}; the extra cells in columns {2} are ignored.',
                cells.length,
                this.width,
                extra.join(', '),
              ),
        ...(q ? { question: q } : {}),
      });
    }
  }

  private error(row: number, column: QaField, code: string, message: string, q: string): void {
    this.errors++;
    this.problems.push({ row, column, severity: 'error', code, message, ...(q ? { question: q } : {}) });
  }
}

/**
 * The trimmed cell at column i; undefined when the field is not mapped (-1) or the row is too short.
 * Readers hand cells over with `\n` line breaks only.
 */
function text(cells: string[], i: number): string | undefined {
  if (i < 0 || i >= cells.length) return undefined;
  const raw = cells[i];
  return raw.charCodeAt(0) === 39 ? unescapeInjection(raw).trim() : raw.trim();
}

/** The cell without a CSV-injection `'` but with its white space. */
function untrimmed(raw: string): string {
  return raw.charCodeAt(0) === 39 ? unescapeInjection(raw) : raw;
}

/** 1st, 2nd, 3rd, 4th… (one key per English suffix, so a language without suffixes says it its own way). */
function ordinal(n: number): string {
  const s = n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  if (s === 'st') return l10n.t('{0}st', n);
  if (s === 'nd') return l10n.t('{0}nd', n);
  if (s === 'rd') return l10n.t('{0}rd', n);
  return l10n.t('{0}th', n);
}
