// One test as read from a file (a YAML mapping or a CSV row, already plain values) checked against the format.
// Each problem becomes a diagnostic at the node it is about; a test with an error is left out of the run, the
// file's other tests still run.
import type { z } from 'zod';
import {
  ASSERTION_KINDS,
  ASSERTION_VALUES,
  ASSERTIONS_OF_MODE,
  TEST_MODES,
  testCaseSchema,
  titleOf,
  type Assertion,
  type AssertionKind,
  type Diagnostic,
  type KnowledgeTest,
  type LocatedAssertion,
  type Position,
} from './testSchema';

export interface Span {
  start: Position;
  end: Position;
}

/** Where the parts of one test are: a value by its path, or the key of a mapping entry. */
export interface Locator {
  whole: Span;
  value(path: ReadonlyArray<string | number>): Span;
  key(path: ReadonlyArray<string | number>, key: string): Span;
}

const isKind = (key: string): key is AssertionKind => (ASSERTION_KINDS as readonly string[]).includes(key);

export function validateTest(raw: unknown, at: Locator): { test?: KnowledgeTest; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const error = (span: Span, message: string): void => void diagnostics.push({ severity: 'error', message, ...span });
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    error(at.whole, 'A test is a mapping with a question and assertions (assert).');
    return { diagnostics };
  }
  const parsed = testCaseSchema.safeParse(raw);
  if (!parsed.success) reportIssues(parsed.error, [], at, error);
  // The mode as written, even when another field is wrong: its assertions are still checked against it.
  const rawMode = (raw as { mode?: unknown }).mode ?? 'answer';
  const mode = parsed.success ? parsed.data.mode : TEST_MODES.find((m) => m === rawMode);
  const items = Array.isArray((raw as { assert?: unknown }).assert) ? ((raw as { assert: unknown[] }).assert as unknown[]) : [];
  const located: LocatedAssertion[] = [];
  items.forEach((item, i) => {
    const path = ['assert', i];
    const keys = item && typeof item === 'object' && !Array.isArray(item) ? Object.keys(item) : [];
    if (keys.length !== 1) {
      error(at.value(path), `An assertion is one name and its value, such as "contains: text" (known: ${ASSERTION_KINDS.join(', ')}).`);
      return;
    }
    const kind = keys[0];
    if (!isKind(kind)) {
      error(at.key(path, kind), `Unknown assertion "${kind}" (known: ${ASSERTION_KINDS.join(', ')}).`);
      return;
    }
    const value = ASSERTION_VALUES[kind].safeParse((item as Record<string, unknown>)[kind]);
    if (!value.success) {
      reportIssues(value.error, [...path, kind], at, error, kind);
      return;
    }
    if (mode && !ASSERTIONS_OF_MODE[mode].includes(kind)) {
      const modes = (Object.keys(ASSERTIONS_OF_MODE) as Array<keyof typeof ASSERTIONS_OF_MODE>).filter((m) =>
        ASSERTIONS_OF_MODE[m].includes(kind),
      );
      error(at.key(path, kind), `"${kind}" cannot be checked in mode ${mode}; it applies to mode ${modes.join(' or ')}.`);
      return;
    }
    located.push({ assertion: { [kind]: value.data } as Assertion, kind, start: at.key(path, kind).start });
  });
  if (!parsed.success || located.length !== items.length) return { diagnostics };
  const { assert: _assert, ...fields } = parsed.data;
  return { test: { ...fields, title: titleOf(parsed.data), assert: located, ...at.whole }, diagnostics };
}

function reportIssues(
  zerr: z.ZodError,
  base: ReadonlyArray<string | number>,
  at: Locator,
  error: (span: Span, message: string) => void,
  label?: string,
): void {
  for (const issue of zerr.issues) {
    const path = [...base, ...issue.path];
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) error(at.key(path, key), `Unknown field "${key}"${label ? ` in ${label}` : ''}.`);
      continue;
    }
    const field = label ?? String(issue.path[0] ?? 'test');
    // A missing field has no node of its own: point at the test (or the assertion) that lacks it.
    const span = issue.code === 'invalid_type' && issue.received === 'undefined' ? at.value(path.slice(0, -1)) : at.value(path);
    error(span, `${field}: ${unionMessage(issue)}`);
  }
}

/** A union's own message ("Invalid input") says nothing: the first branch's reason does. */
function unionMessage(issue: z.ZodIssue): string {
  if (issue.code === 'invalid_union') {
    const inner = issue.unionErrors.flatMap((e) => e.issues).find((i) => i.code !== 'invalid_type') ?? issue.unionErrors[0]?.issues[0];
    if (inner) return unionMessage(inner);
  }
  return issue.message;
}
