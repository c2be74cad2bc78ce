// The CSV form of knowledge tests, for people who write them in a spreadsheet: a header row, then one test a row.
// The question column is named as in the service's bulk processing input (`question`, or 質問); the other columns
// are the YAML fields and assertions by name. A cell with several values has one per line (Alt+Enter in Excel).
// The text (already decoded) is split here with the position of every cell, so problems point at the cell.
import { parseHashtags } from '../hashtags';
import { ASSERTION_KINDS, type AssertionKind, type Diagnostic, type KnowledgeTest, type ParsedTestFile, type Position } from './testSchema';
import { validateTest, type Span } from './validateTest';

interface Cell {
  text: string;
  start: Position;
  end: Position;
}

const FIELDS = ['name', 'question', 'mode', 'scope', 'sources', 'hashtags', 'hashtagsOperator', 'top'] as const;
const ALIASES: Record<string, string> = { 質問: 'question' };
const lowerNames = new Map<string, string>([...FIELDS, ...ASSERTION_KINDS].map((n) => [n.toLowerCase(), n]));

export function parseTestCsv(text: string): ParsedTestFile {
  const rows = splitCsv(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  const diagnostics: Diagnostic[] = [];
  const header = rows.shift();
  const error = (span: Span, message: string): void =>
    void diagnostics.push({ severity: 'error', message, start: span.start, end: span.end });
  const columns = (header ?? []).map((cell) => {
    const trimmed = cell.text.trim();
    const name = ALIASES[trimmed] ?? lowerNames.get(trimmed.toLowerCase());
    if (!name && trimmed) error(cell, `Unknown column "${trimmed}" (known: ${[...FIELDS, ...ASSERTION_KINDS].join(', ')}).`);
    return name;
  });
  if (!header || !columns.includes('question')) {
    const at = header?.[0] ?? { start: { line: 1, column: 1 }, end: { line: 1, column: 1 } };
    error(at, 'The first row names the columns, one of them "question".');
    return { tests: [], diagnostics };
  }
  const tests: KnowledgeTest[] = [];
  for (const row of rows) {
    if (row.every((c) => !c.text.trim())) continue;
    const raw: Record<string, unknown> = {};
    const cellOf = new Map<string, Cell>();
    const assert: Array<Record<string, unknown>> = [];
    const assertCells: Cell[] = [];
    let top: number | undefined;
    row.forEach((cell, i) => {
      const name = columns[i];
      const value = cell.text.trim();
      if (name) cellOf.set(name, cell);
      if (name === 'question') raw.question = value;
      if (!name || !value || name === 'question') return;
      if ((ASSERTION_KINDS as readonly string[]).includes(name)) {
        assert.push({ [name]: assertionValue(name as AssertionKind, value) });
        assertCells.push(cell);
      } else if (name === 'top') top = Number(value);
      else raw[name] = fieldValue(name, value);
    });
    const retrieves = assert.find((a) => 'retrieves' in a) as { retrieves: Record<string, unknown> } | undefined;
    if (retrieves && top !== undefined) retrieves.retrieves.top = top;
    raw.assert = assert;
    const whole: Span = { start: row[0].start, end: row[row.length - 1].end };
    const result = validateTest(raw, {
      whole,
      value: (path) =>
        path[0] === 'assert' && typeof path[1] === 'number' ? (assertCells[path[1]] ?? whole) : (cellOf.get(String(path[0])) ?? whole),
      key: (path, key) =>
        path[0] === 'assert' && typeof path[1] === 'number' ? (assertCells[path[1]] ?? whole) : (cellOf.get(key) ?? whole),
    });
    diagnostics.push(...result.diagnostics);
    if (result.test) tests.push(result.test);
  }
  return { tests, diagnostics };
}

const lines = (value: string): string[] =>
  value
    .split(/\r?\n/)
    .map((s) => s.trim())
    .filter(Boolean);

function fieldValue(name: string, value: string): unknown {
  if (name === 'hashtags') return parseHashtags(value);
  if (name === 'scope' || name === 'sources') return value.split(/[\s,;]+/).filter(Boolean);
  return value;
}

/** A cell's text as the YAML value: `doc#page` for a page, `qna:` for a Q&A, numbers and yes/true as such. */
function assertionValue(kind: AssertionKind, value: string): unknown {
  switch (kind) {
    case 'contains':
    case 'containsAny':
    case 'notContains':
      return lines(value);
    case 'noAnswer':
      return /^(true|yes|y|x|1|✓|○)$/i.test(value) ? true : value;
    case 'minConfidence':
      return Number.isNaN(Number(value)) ? value : Number(value);
    case 'cites':
    case 'retrieves': {
      if (kind === 'cites' && /^qna:/i.test(value)) return { qna: value.slice(4).trim() };
      const m = /^(.*)#(\d+)$/.exec(value);
      return m ? { document: m[1].trim(), page: Number(m[2]) } : { document: value };
    }
    default:
      return value;
  }
}

/** RFC 4180 with the start and end of every cell (quoted cells may span lines). */
export function splitCsv(text: string): Cell[][] {
  const rows: Cell[][] = [];
  let row: Cell[] = [];
  let line = 1;
  let column = 1;
  let i = 0;
  const delimiter = sniff(text);
  while (i <= text.length) {
    const start = { line, column };
    let value = '';
    if (text[i] === '"') {
      i++;
      column++;
      for (; i < text.length; i++, column++) {
        const c = text[i];
        if (c === '"') {
          if (text[i + 1] === '"') {
            value += '"';
            i++;
            column++;
          } else break;
        } else {
          value += c;
          if (c === '\n') {
            line++;
            column = 0;
          }
        }
      }
      i++;
      column++;
    }
    while (i < text.length && text[i] !== delimiter && text[i] !== '\n' && text[i] !== '\r') {
      value += text[i++];
      column++;
    }
    row.push({ text: value, start, end: { line, column } });
    if (text[i] === delimiter) {
      i++;
      column++;
      continue;
    }
    rows.push(row);
    row = [];
    if (text[i] === '\r') i++;
    if (text[i] === '\n') i++;
    line++;
    column = 1;
    if (i >= text.length) break;
  }
  return rows.filter((r) => r.length > 1 || r[0].text !== '');
}

function sniff(text: string): ',' | '\t' {
  const first = text.slice(0, text.search(/\r?\n|$/));
  return first.includes('\t') && !first.includes(',') ? '\t' : ',';
}
