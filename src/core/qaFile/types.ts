// Shapes shared by the Q&A file reader, its dry run and the local service's upload_faq_file.

export type QaField = 'question' | 'answer' | 'similarQuestions' | 'hashtags' | 'status' | 'folder' | 'memo';

/** Field → 0-based column index in the header row. */
export type ColumnMapping = Partial<Record<QaField, number>>;

export interface QaRow {
  /**
   * 1-based record number in the file counting the header as 1. For CSV/TSV this is the physical
   * line the record starts on (blank lines and multi-line quoted cells counted), so it points at the
   * right line in an editor; for XLSX it is the sheet's row number.
   */
  row: number;
  question: string;
  answer: string;
  similarQuestions: string[];
  hashtags: string[];
  status: 'on' | 'off';
  /** The file has a status column and this row's cell is empty: on for a new Q&A, an existing one keeps its status. */
  statusBlank?: true;
  folder?: string;
  memo?: string;
}

export interface RowProblem {
  /** As QaRow.row: where the record starts. File-level problems use the header's row (usually 1). */
  row: number;
  /**
   * CSV only: where the parser noticed a broken quote, when not on the record's first line. The problem itself
   * is on `row` (where the quote opens); this line is often the next record, read again on its own and valid.
   */
  line?: number;
  column?: QaField;
  severity: 'error' | 'warning';
  code: string;
  message: string;
  question?: string;
}

export type QaFileEncoding = 'utf-8' | 'utf-8-bom' | 'shift_jis' | 'windows-1252' | 'xlsx';

export interface QaFileRead {
  rows: QaRow[];
  problems: RowProblem[];
  mapping: ColumnMapping;
  headers: string[];
  encoding: QaFileEncoding;
  delimiter?: ',' | '\t';
}
