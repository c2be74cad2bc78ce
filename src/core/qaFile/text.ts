// Cell-level text rules of Q&A files: question keys, similar questions, status. Hashtags and lengths
// follow the rules of every other input (src/core/hashtags.ts, src/core/charCount.ts).
// Regular expressions are compiled once here; these run once per cell on files of 50,000+ rows.
import * as l10n from '@vscode/l10n';

const SPACES = /\s+/g;
const NON_ASCII_OR_SPACE_RUN = /[^\x21-\x7e ]| {2}/;
const SIMILAR_SEPARATORS = /[\n\r|]/;
const LINE_BREAK = /[\n\r]/;
const LINE_SPLIT = /\r\n|[\n\r]/;
const PIPE = '|';
const CR_SEQUENCE = /\r\n?/g;

/**
 * The key a question is compared by (in-file duplicates, existing Q&As): NFKC, trimmed, runs of
 * white space collapsed to one space, lower case. Full-width letters and spaces match their ASCII forms.
 */
export function normalizeQuestion(question: string): string {
  // Fast path: printable ASCII with single spaces is already NFKC and collapsed.
  if (!NON_ASCII_OR_SPACE_RUN.test(question)) return question.trim().toLowerCase();
  return question.normalize('NFKC').replace(SPACES, ' ').trim().toLowerCase();
}

/** `\r\n` and lone `\r` inside a cell become `\n`. */
export function normalizeNewlines(text: string): string {
  return text.indexOf('\r') === -1 ? text : text.replace(CR_SEQUENCE, '\n');
}

/**
 * One similar question per line. Only in a cell of a single line does `|` separate them too ("a | b"): a
 * cell with line breaks keeps `|` as text, which is how an export writes a similar question containing `|`
 * (exportCsv.ts). Give the cell untrimmed: a line break at its end counts. Trimmed, empty ones dropped.
 */
export function splitSimilarQuestions(cell: string): string[] {
  if (!SIMILAR_SEPARATORS.test(cell)) {
    const one = cell.trim();
    return one ? [one] : [];
  }
  const out: string[] = [];
  for (const part of cell.split(LINE_BREAK.test(cell) ? LINE_SPLIT : PIPE)) {
    const t = part.trim();
    if (t) out.push(t);
  }
  return out;
}

const STATUS = new Map<string, 'on' | 'off'>([
  ['on', 'on'],
  ['true', 'on'],
  ['1', 'on'],
  ['有効', 'on'],
  ['オン', 'on'],
  ['off', 'off'],
  ['false', 'off'],
  ['0', 'off'],
  ['無効', 'off'],
  ['オフ', 'off'],
]);

/** The status values a Q&A file may use, for problems (through @vscode/l10n, see rowValidator.ts). */
export const statusValuesText = (): string => l10n.t('on or off (also true/false, 1/0, 有効/無効, オン/オフ)');

/** Status cell → on/off; empty → on; anything else → undefined (invalid). Case-insensitive, full-width tolerant. */
export function parseStatus(cell: string): 'on' | 'off' | undefined {
  const t = cell.trim();
  if (!t) return 'on';
  return STATUS.get(t.toLowerCase()) ?? STATUS.get(t.normalize('NFKC').trim().toLowerCase());
}

/**
 * A leading `'` put before `= + - @ tab CR` by CSV-injection escaping (ours or a spreadsheet's) is removed again,
 * and so is the one the export puts before a text that itself starts with `'` and one of those.
 */
export function unescapeInjection(cell: string): string {
  if (cell.charCodeAt(0) !== 39 || cell.length < 2) return cell;
  const c = cell.charCodeAt(1);
  return isFormulaStart(c) || (c === 39 && isFormulaStart(cell.charCodeAt(2))) ? cell.slice(1) : cell;
}

function isFormulaStart(c: number): boolean {
  return c === 61 || c === 43 || c === 45 || c === 64 || c === 9 || c === 13;
}
