// Query-string parameters of the Q&A read operations, each failure a 400 naming the parameter.
import { badRequest } from '../http/errors';

type Source = URLSearchParams | Record<string, unknown>;

function raw(source: Source, name: string): unknown {
  if (source instanceof URLSearchParams) return source.get(name) ?? undefined;
  return source[name];
}

export function intParam(source: Source, name: string, options: { def: number; min: number; max: number }): number {
  const value = raw(source, name);
  if (value === undefined || value === null || value === '') return options.def;
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n)) throw badRequest(`${name}: must be an integer`, name);
  if (n < options.min) throw badRequest(`${name}: must be at least ${options.min}`, name);
  if (n > options.max) throw badRequest(`${name}: must be at most ${options.max}`, name);
  return n;
}

export function enumParam<T extends string>(source: Source, name: string, values: readonly T[], def: T): T {
  const value = raw(source, name);
  if (value === undefined || value === null || value === '') return def;
  if (typeof value === 'string' && (values as readonly string[]).includes(value)) return value as T;
  throw badRequest(`${name}: must be one of ${values.join(', ')}`, name);
}

export function stringParam(source: Source, name: string): string | undefined {
  const value = raw(source, name);
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw badRequest(`${name}: must be a string`, name);
  return value;
}

/** Repeated `name=a&name=b`, or one value holding a JSON array or comma-separated names. */
export function listParam(source: Source, name: string): string[] {
  const values = source instanceof URLSearchParams ? source.getAll(name) : toList(source[name]);
  const out: string[] = [];
  for (const v of values) {
    const text = v.trim();
    if (text.startsWith('[')) {
      try {
        const parsed: unknown = JSON.parse(text);
        if (Array.isArray(parsed)) {
          for (const item of parsed) out.push(String(item));
          continue;
        }
      } catch {
        // not JSON: fall through to a comma-separated list
      }
    }
    for (const part of text.split(',')) out.push(part);
  }
  return out.map((s) => s.trim()).filter(Boolean);
}

function toList(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value.map(String) : [String(value)];
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar date written YYYY-MM-DD, or undefined when absent. */
export function dateParam(source: Source, name: string): string | undefined {
  const value = raw(source, name);
  if (value === undefined || value === null || value === '') return undefined;
  const text = typeof value === 'string' ? value.trim() : '';
  const m = DATE.exec(text);
  if (!m) throw badRequest(`${name}: must be a date written YYYY-MM-DD`, name);
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  if (d.getFullYear() !== Number(m[1]) || d.getMonth() !== Number(m[2]) - 1 || d.getDate() !== Number(m[3])) {
    throw badRequest(`${name}: ${text} is not a calendar date`, name);
  }
  return text;
}

/** Every date from start to end inclusive (local calendar days). */
export function daysBetween(start: string, end: string): string[] {
  const days: string[] = [];
  const [y, m, d] = start.split('-').map(Number);
  const cursor = new Date(y, m - 1, d);
  for (let day = start; day <= end;) {
    days.push(day);
    cursor.setDate(cursor.getDate() + 1);
    day = `${cursor.getFullYear()}-${String(cursor.getMonth() + 1).padStart(2, '0')}-${String(cursor.getDate()).padStart(2, '0')}`;
  }
  return days;
}

/** startDate and endDate, both required, end not before start, at most `maxDays` days. */
export function requiredRange(source: Source, maxDays = 366): { start: string; end: string; days: string[] } {
  const start = dateParam(source, 'startDate');
  const end = dateParam(source, 'endDate');
  if (!start) throw badRequest('startDate: is required (YYYY-MM-DD)', 'startDate');
  if (!end) throw badRequest('endDate: is required (YYYY-MM-DD)', 'endDate');
  if (end < start) throw badRequest('endDate: must not be before startDate', 'endDate');
  const utc = (date: string): number => {
    const [y, m, d] = date.split('-').map(Number);
    return Date.UTC(y, m - 1, d);
  };
  const count = Math.round((utc(end) - utc(start)) / 86_400_000) + 1;
  if (count > maxDays) throw badRequest(`endDate: the range may cover at most ${maxDays} days (got ${count})`, 'endDate');
  return { start, end, days: daysBetween(start, end) };
}
