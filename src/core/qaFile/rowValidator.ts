// Turns the cells of one record into a QaRow, or into row-numbered problems.
import { charsOver } from '../charCount';
import { parseHashtags } from '../hashtags';
import { columnLetter } from './columns';
import type { QaLimits } from './limits';
import { normalizeQuestion, parseStatus, splitSimilarQuestions, STATUS_VALUES_TEXT, unescapeInjection } from './text';
import type { ColumnMapping, QaField, QaRow, RowProblem } from './types';

const LABEL: Record<QaField, string> = {
  question: 'question',
  answer: 'answer',
  similarQuestions: 'similar question',
  hashtags: 'hashtag',
  status: 'status',
  folder: 'folder',
  memo: 'memo',
};

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
    if (!status) this.error(row, 'status', 'invalid-status', `Status "${statusCell}" is not valid: use ${STATUS_VALUES_TEXT}.`, q);

    const similarCell = text(cells, this.iSimilar);
    const similarQuestions = similarCell ? splitSimilarQuestions(similarCell) : [];
    this.list(row, 'similarQuestions', similarQuestions, limits.similarQuestion, limits.similarQuestions, q);
    const hashtagCell = text(cells, this.iHashtags);
    const hashtags = hashtagCell ? parseHashtags(hashtagCell) : [];
    this.list(row, 'hashtags', hashtags, limits.hashtag, limits.hashtags, q);

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
      this.error(row, 'question', 'duplicate-in-file', `Same question as row ${first}; only row ${first} is imported.`, q);
      return;
    }
    this.firstRow.set(key, row);
    const qa: QaRow = { row, question: q, answer: answer!, similarQuestions, hashtags, status: status! };
    if (folder) qa.folder = folder;
    if (memo) qa.memo = memo;
    this.rows.push(qa);
    this.keys.push(key);
    if (this.existing?.has(key)) {
      this.willUpdate++;
      this.problems.push({
        row,
        column: 'question',
        severity: 'warning',
        code: 'exists',
        message: 'A Q&A with this question already exists; importing updates its answer.',
        question: q,
      });
    }
  }

  private required(cells: string[], row: number, field: 'question' | 'answer', i: number, q: string): void {
    const short =
      i >= cells.length
        ? ` (the row has ${cells.length} cell${cells.length === 1 ? '' : 's'}; the ${field} is in column ${columnLetter(i)})`
        : '';
    this.error(row, field, `missing-${field}`, `The ${field} is empty${short}.`, q);
  }

  private tooLong(row: number, field: QaField, text: string, limit: number, q: string, which = ''): void {
    if (text.length <= limit) return;
    const n = charsOver(text, limit);
    if (n !== undefined)
      this.error(
        row,
        field,
        'too-long',
        `The ${which}${LABEL[field]} is ${n.toLocaleString('en-US')} characters long; the limit is ${limit.toLocaleString('en-US')}.`,
        q,
      );
  }

  private list(row: number, field: QaField, items: string[], each: number, most: number, q: string): void {
    if (items.length > most) this.error(row, field, 'too-many', `${items.length} ${LABEL[field]}s; at most ${most} are allowed.`, q);
    for (let k = 0; k < items.length; k++) this.tooLong(row, field, items[k], each, q, `${ordinal(k + 1)} `);
  }

  private extraCells(cells: string[], row: number, q: string): void {
    const extra: string[] = [];
    for (let i = this.width; i < cells.length; i++) if (cells[i].trim()) extra.push(columnLetter(i));
    if (extra.length) {
      this.problems.push({
        row,
        severity: 'warning',
        code: 'extra-cells',
        message: `The row has ${cells.length} cells but the header has ${this.width}; the extra cell${extra.length === 1 ? '' : 's'} in column${extra.length === 1 ? '' : 's'} ${extra.join(', ')} ${extra.length === 1 ? 'is' : 'are'} ignored.`,
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

function ordinal(n: number): string {
  const s = n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${s}`;
}
