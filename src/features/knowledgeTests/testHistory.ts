// The knowledge tests' results over time, kept in workspaceState so they survive a restart: each test's last
// outcome, when it last flipped from pass to fail (and in which run), and the last runs' results from which a
// file's pass rate is read. Pure (no vscode): unit-tested in Node. Bounded: only the last MAX_RUNS runs are kept.

export type Status = 'passed' | 'failed' | 'errored';

/** A test's id: `<file id>::<name>` (see testIds.ts); the file id is its workspace-relative path. */
export interface RunRecord {
  /** 1, 2, 3 … in this workspace: what people call "run 12". */
  seq: number;
  /** Milliseconds since the epoch, when the run started. */
  time: number;
  results: Record<string, Status>;
}

export interface LastResult {
  status: Status;
  time: number;
  seq: number;
  /** The first failure's sentence, for the tooltip. */
  message?: string;
}

export interface Flip {
  seq: number;
  time: number;
}

export interface HistoryState {
  version: 1;
  nextSeq: number;
  runs: RunRecord[];
  last: Record<string, LastResult>;
  /** The last pass → fail (or error) flip of each test that had one. */
  flips: Record<string, Flip>;
}

export const MAX_RUNS = 20;
/** The workspaceState key of the history. */
export const HISTORY_KEY = 'knowledgeDesk.knowledgeTests.history';

export function emptyHistory(): HistoryState {
  return { version: 1, nextSeq: 1, runs: [], last: {}, flips: {} };
}

/** A stored value read back: anything unexpected (an older shape, a hand edit) starts over rather than breaks. */
export function restoreHistory(stored: unknown): HistoryState {
  const s = stored as Partial<HistoryState> | undefined;
  if (!s || s.version !== 1 || !Array.isArray(s.runs) || typeof s.last !== 'object' || typeof s.flips !== 'object') return emptyHistory();
  return { version: 1, nextSeq: Number(s.nextSeq) || s.runs.length + 1, runs: s.runs, last: { ...s.last }, flips: { ...s.flips } };
}

export interface RunInput {
  time: number;
  results: Record<string, { status: Status; message?: string }>;
}

/** The state after one run (the input is not changed); a run with no results is not recorded. */
export function recordRun(state: HistoryState, run: RunInput): HistoryState {
  const ids = Object.keys(run.results);
  if (!ids.length) return state;
  const seq = state.nextSeq;
  const last = { ...state.last };
  const flips = { ...state.flips };
  const results: Record<string, Status> = {};
  for (const id of ids) {
    const { status, message } = run.results[id];
    results[id] = status;
    if (last[id]?.status === 'passed' && status !== 'passed') flips[id] = { seq, time: run.time };
    last[id] = { status, time: run.time, seq, ...(message ? { message } : {}) };
  }
  const runs = [...state.runs, { seq, time: run.time, results }].slice(-MAX_RUNS);
  return { version: 1, nextSeq: seq + 1, runs, last, flips };
}

export const fileOf = (testId: string): string => testId.slice(0, Math.max(0, testId.lastIndexOf('::')));

export interface PassRate {
  passed: number;
  total: number;
  /** How many of the kept runs ran a test of this file. */
  runs: number;
}

/** A file's pass rate over the kept runs: every result of its tests, counted. */
export function passRate(state: HistoryState, fileId: string): PassRate {
  let passed = 0;
  let total = 0;
  let runs = 0;
  for (const run of state.runs) {
    let counted = false;
    for (const [id, status] of Object.entries(run.results)) {
      if (fileOf(id) !== fileId) continue;
      total++;
      counted = true;
      if (status === 'passed') passed++;
    }
    if (counted) runs++;
  }
  return { passed, total, runs };
}

/** The files that appear in the kept history, sorted. */
export function filesInHistory(state: HistoryState): string[] {
  return [...new Set([...Object.keys(state.last), ...state.runs.flatMap((r) => Object.keys(r.results))].map(fileOf))].sort();
}
