// What the Jobs view shows, as plain functions (no vscode: unit-tested in plain Node). Texts through
// @vscode/l10n, numbers and dates through intlFormat: src/platform/l10n.ts hands both the display language.
import * as l10n from '@vscode/l10n';
import { numberText, shortDateTimeText } from '../../platform/intlFormat';
import { fieldName, jobStateLabel, statCountText, stepText } from './jobStatNames';
import type { BulkResult, RareResult, RareStatus } from '../../api/schemas/jobs';
import { ACTIVE_JOB_STATES } from '../../api/values';

export type RareJob = 'build' | 'generate';

/** Bulk statuses are not documented (docs/api.md#bulk-processing); these extra spellings also mean "still working". */
const MORE_ACTIVE = new Set(['processing', 'pending', 'in_progress', 'started']);
export const FINAL_STATES: ReadonlySet<string> = new Set(['completed', 'failed', 'cancelled']);

/** "build" and "generate" inside a sentence or the status bar. */
export function rareJobName(job: RareJob): string {
  return job === 'build' ? l10n.t('build') : l10n.t('generate');
}

export function isActiveState(state: string | undefined | null): boolean {
  return !!state && (ACTIVE_JOB_STATES.has(state) || MORE_ACTIVE.has(state));
}

export function isFinalState(state: string | undefined | null): boolean {
  return !!state && FINAL_STATES.has(state);
}

/**
 * State of one RARE row. build_status tells the build; job_status belongs to job_type (the job that
 * runs or ran last), so the generate row is idle unless the last job was a generate.
 */
export function rareJobState(status: RareStatus | undefined, job: RareJob): string {
  if (!status) return 'unknown';
  if (job === 'build') return status.build_status || (status.job_type === 'build' ? status.job_status : undefined) || 'idle';
  return status.job_type === 'generate' ? status.job_status || 'idle' : 'idle';
}

/** The error of a RARE row: error_message belongs to the last job, shown only when that row failed. */
export function rareJobError(status: RareStatus | undefined, job: RareJob): string | undefined {
  if (!status || rareJobState(status, job) !== 'failed') return undefined;
  return (status.job_type || 'build') === job ? status.error_message || undefined : undefined;
}

export function rareProgress(status: RareStatus | undefined, job: RareJob): Record<string, unknown> {
  return (job === 'build' ? status?.build_progress : status?.generate_progress) ?? {};
}

export function rareStats(status: RareStatus | undefined, job: RareJob): Record<string, unknown> {
  return (job === 'build' ? status?.build_stats : status?.generate_stats) ?? {};
}

export interface ProgressSummary {
  percent?: number;
  done?: number;
  total?: number;
  step?: string;
  /** Every key with a printable value, in the service's order. */
  entries: Array<[key: string, value: string]>;
}

const norm = (key: string): string => key.toLowerCase().replace(/[^a-z0-9]/g, '');
const num = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : undefined;
const PERCENT_KEYS = ['percent', 'percentage', 'pct', 'progresspercent', 'percentcomplete', 'progresspct'];
const FRACTION_KEYS = ['progress', 'fraction', 'ratio'];
const DONE_PREFIXES = ['processed', 'done', 'completed', 'finished', 'current', 'generated'];
const STEP_KEYS = ['currentstep', 'step', 'stage', 'currentstage', 'phase', 'message', 'statusmessage', 'detail'];

/** Reads a free-form progress object: percent, done/total pairs (processed_docs + total_docs…), current step. */
export function summarizeProgress(progress: Record<string, unknown> | undefined | null): ProgressSummary {
  const obj = progress ?? {};
  const byNorm = new Map(Object.entries(obj).map(([k, v]) => [norm(k), v] as const));
  const out: ProgressSummary = { entries: [] };
  // The first key of a list that holds a number: a percentage (0.42 under "pct" means 42 %), else a fraction.
  const first = (keys: string[]): { key: string; v: number } | undefined => {
    for (const key of keys) {
      const v = num(byNorm.get(key));
      if (v !== undefined) return { key, v };
    }
    return undefined;
  };
  const pct = first(PERCENT_KEYS);
  const fraction = pct ? undefined : first(FRACTION_KEYS);
  if (pct) out.percent = pct.v > 0 && pct.v <= 1 && !Number.isInteger(pct.v) && pct.key !== 'percent' ? pct.v * 100 : pct.v;
  else if (fraction) out.percent = fraction.v <= 1 ? fraction.v * 100 : fraction.v;
  // A done/total pair sharing a suffix (processed_chunks / total_chunks), else the bare names.
  const singular = (s: string): string => s.replace(/s$/, '');
  for (const [key, value] of byNorm) {
    if (!key.startsWith('total')) continue;
    const total = num(value);
    if (total === undefined) continue;
    const suffix = singular(key.slice('total'.length));
    const doneKey = [...byNorm.keys()].find((k) => DONE_PREFIXES.some((p) => k.startsWith(p) && singular(k.slice(p.length)) === suffix));
    const done = doneKey ? num(byNorm.get(doneKey)) : undefined;
    if (done === undefined) continue;
    out.done = done;
    out.total = total;
    break;
  }
  if (out.percent === undefined && out.done !== undefined && out.total) out.percent = (out.done / out.total) * 100;
  if (out.percent !== undefined) out.percent = Math.max(0, Math.min(100, out.percent));
  for (const key of STEP_KEYS) {
    const v = byNorm.get(key);
    if (typeof v === 'string' && v.trim()) {
      out.step = v.trim();
      break;
    }
  }
  out.entries = printableEntries(obj);
  return out;
}

/** Key/value lines of a free-form object (stats, progress) for tooltips. */
export function printableEntries(obj: Record<string, unknown> | undefined | null): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const [key, value] of Object.entries(obj ?? {})) {
    const text = printable(value);
    if (text !== undefined) out.push([fieldName(key), text]);
  }
  return out;
}

function printable(value: unknown): string | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  if (typeof value === 'number') return Number.isInteger(value) ? numberText(value) : numberText(value, { maximumFractionDigits: 3 });
  if (typeof value === 'string') return value.length > 200 ? `${value.slice(0, 199)}…` : value;
  if (typeof value === 'boolean') return value ? l10n.t('yes') : l10n.t('no');
  const json = JSON.stringify(value);
  return json.length > 200 ? `${json.slice(0, 199)}…` : json;
}

/** Whole percents ("8%"); one decimal only below 1% so a slow start does not read as 0%. */
export function formatPercent(percent: number): string {
  return `${percent > 0 && percent < 1 ? percent.toFixed(1) : Math.floor(percent)}%`;
}

/** "42% · 21/50 · embedding chunks" (the parts that are known). */
export function progressText(summary: ProgressSummary): string {
  const parts: string[] = [];
  if (summary.percent !== undefined) parts.push(formatPercent(summary.percent));
  if (summary.done !== undefined && summary.total !== undefined) parts.push(`${summary.done}/${summary.total}`);
  if (summary.step) parts.push(stepText(summary.step));
  return parts.join(' · ');
}

/** Up to `max` numeric stats, "12 documents · 340 chunks". */
export function compactStats(stats: Record<string, unknown> | undefined | null, max = 3): string {
  return Object.entries(stats ?? {})
    .filter(([, v]) => typeof v === 'number' && Number.isFinite(v))
    .slice(0, max)
    .map(([k, v]) => statCountText(k, numberText(v as number, { maximumFractionDigits: 2 }), v as number))
    .join(' · ');
}

/** The description of a RARE row. */
export function rareJobDescription(status: RareStatus | undefined, job: RareJob): string {
  const state = rareJobState(status, job);
  if (state === 'failed') {
    const error = rareJobError(status, job);
    return error ? l10n.t('failed: {0}', error) : jobStateLabel(state);
  }
  if (isActiveState(state)) {
    const text = progressText(summarizeProgress(rareProgress(status, job)));
    return text ? `${jobStateLabel(state)} ${text}` : jobStateLabel(state);
  }
  if (state === 'completed') {
    const stats = compactStats(rareStats(status, job), 2);
    return stats ? `${jobStateLabel(state)} · ${stats}` : jobStateLabel(state);
  }
  if (job === 'generate' && state === 'idle' && status && status.build_status !== 'completed')
    return l10n.t('idle · needs a completed build');
  return jobStateLabel(state);
}

/** Status-bar fragment of one running job: "build 42%", "generate 3/10", "build queued". */
export function rareStatusBarPart(status: RareStatus | undefined, job: RareJob): string | undefined {
  const state = rareJobState(status, job);
  if (!isActiveState(state)) return undefined;
  const name = rareJobName(job);
  if (state !== 'running') return `${name} ${jobStateLabel(state)}`;
  const p = summarizeProgress(rareProgress(status, job));
  if (p.percent !== undefined) return `${name} ${formatPercent(p.percent)}`;
  if (p.done !== undefined && p.total !== undefined) return `${name} ${p.done}/${p.total}`;
  return `${name} ${jobStateLabel('running')}`;
}

export function bulkStatusBarPart(bulk: readonly BulkResult[]): string | undefined {
  const active = bulk.filter((b) => isActiveState(b.status));
  if (!active.length) return undefined;
  const first = active[0];
  const count =
    first.total !== undefined && first.total !== null ? `${first.processed ?? 0}/${first.total}` : jobStateLabel(first.status ?? 'running');
  return `${l10n.t('bulk {0}', count)}${active.length > 1 ? ` +${active.length - 1}` : ''}`;
}

/** The whole status-bar text, or undefined when nothing runs (the item is hidden then). */
export function statusBarText(status: RareStatus | undefined, bulk: readonly BulkResult[]): string | undefined {
  const parts = [rareStatusBarPart(status, 'build'), rareStatusBarPart(status, 'generate'), bulkStatusBarPart(bulk)].filter(Boolean);
  return parts.length ? `$(sync~spin) Knowledge Desk: ${parts.join(' · ')}` : undefined;
}

export function anyActive(status: RareStatus | undefined, bulk: readonly BulkResult[]): boolean {
  return (
    isActiveState(rareJobState(status, 'build')) ||
    isActiveState(rareJobState(status, 'generate')) ||
    bulk.some((b) => isActiveState(b.status))
  );
}

/** "2025-03-01 14:05" in local time (English; the display language's short date otherwise); the input as given when it is not a date. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return l10n.t('(no date)');
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return value;
  return shortDateTimeText(d);
}

/** Newest first (results without a date last, in the service's order). */
export function newestFirst<T extends { created_at?: string | null }>(items: readonly T[]): T[] {
  const time = (t: T): number => (t.created_at ? Date.parse(t.created_at) || 0 : 0);
  return items
    .map((item, i) => ({ item, i }))
    .sort((a, b) => time(b.item) - time(a.item) || a.i - b.i)
    .map((x) => x.item);
}

export function bulkProgressText(b: BulkResult): string {
  const parts = [jobStateLabel(b.status || 'unknown')];
  if (b.total !== undefined && b.total !== null) parts.push(`${b.processed ?? 0}/${b.total}`);
  return parts.join(' · ');
}

/** "30 questions" for the Generate completed message: a question count in the stats, else the newest result's samples. */
export function generatedCountText(stats: Record<string, unknown>, newest: RareResult | undefined): string | undefined {
  const entries = Object.entries(stats);
  const pick = (re: RegExp): number | undefined =>
    entries.map(([k, v]) => (re.test(norm(k)) ? num(v) : undefined)).find((v) => v !== undefined);
  const questions = pick(/question/);
  if (questions !== undefined) return questions === 1 ? l10n.t('{0} question', questions) : l10n.t('{0} questions', questions);
  const samples = pick(/sample/) ?? newest?.n_samples ?? undefined;
  if (samples === undefined) return undefined;
  return samples === 1 ? l10n.t('{0} sample', samples) : l10n.t('{0} samples', samples);
}
