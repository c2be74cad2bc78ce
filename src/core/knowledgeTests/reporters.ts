// What a run prints: text for people, JUnit XML for CI test reports (GitHub, GitLab, Jenkins read the
// testsuites/testsuite/testcase/failure shape), JSON for scripts. Problems of a file (its diagnostics) are
// reported as failing test cases at their line, so a broken test cannot pass a CI run unnoticed.
import type { AssertionResult, Observation } from './evaluate';
import type { Diagnostic } from './testSchema';

export const REPORTERS = ['text', 'junit', 'json'] as const;
export type ReporterName = (typeof REPORTERS)[number];

/** One outcome as reporters see it (the runner's TestOutcome fits). */
export interface ReportedOutcome {
  file: string;
  test: { title: string; question: string; mode: string; start: { line: number; column: number } };
  status: 'passed' | 'failed' | 'errored';
  durationMs: number;
  assertions: AssertionResult[];
  error?: string;
  observed?: Observation;
}

export interface RunReport {
  outcomes: ReportedOutcome[];
  problems: Array<{ file: string; diagnostic: Diagnostic }>;
  durationMs: number;
}

export interface Totals {
  tests: number;
  passed: number;
  failed: number;
  errored: number;
  problems: number;
}

export function totals(report: RunReport): Totals {
  const count = (s: ReportedOutcome['status']): number => report.outcomes.filter((o) => o.status === s).length;
  const problems = report.problems.filter((p) => p.diagnostic.severity === 'error').length;
  return { tests: report.outcomes.length, passed: count('passed'), failed: count('failed'), errored: count('errored'), problems };
}

export function report(name: ReporterName, run: RunReport): string {
  return name === 'junit' ? junitReport(run) : name === 'json' ? jsonReport(run) : textReport(run);
}

const indent = (text: string, by = '      '): string => text.replace(/\n/g, `\n${by}`);

export function textReport(run: RunReport): string {
  const out: string[] = [];
  for (const { file, diagnostic: d } of run.problems) {
    out.push(`${file}:${d.start.line}:${d.start.column}: ${d.severity}: ${d.message}`);
  }
  for (const o of run.outcomes) {
    const mark = o.status === 'passed' ? 'PASS' : o.status === 'failed' ? 'FAIL' : 'ERROR';
    out.push(`${mark}  ${o.test.title}  (${o.file}:${o.test.start.line}, ${o.durationMs} ms)`);
    if (o.error) out.push(`      ${indent(o.error)}`);
    for (const a of o.assertions.filter((x) => !x.passed)) {
      out.push(`    ✗ ${a.kind} (line ${a.line}): ${a.message}`);
      out.push(`      expected: ${indent(a.expected, '                ')}`);
      out.push(`      actual:   ${indent(excerpt(a.actual), '                ')}`);
    }
  }
  const t = totals(run);
  out.push(
    `\n${t.tests} tests: ${t.passed} passed, ${t.failed} failed, ${t.errored} errored${t.problems ? `; ${t.problems} problems in test files` : ''} (${(run.durationMs / 1000).toFixed(1)} s)`,
  );
  return `${out.join('\n')}\n`;
}

function excerpt(text: string, max = 600): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** XML 1.0 text: escaped, and without the control characters XML cannot hold at all. */
export function xmlText(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

const seconds = (ms: number): string => (ms / 1000).toFixed(3);

export function junitReport(run: RunReport): string {
  const files = [...new Set([...run.problems.map((p) => p.file), ...run.outcomes.map((o) => o.file)])];
  const t = totals(run);
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="knowledge-desk" tests="${t.tests + t.problems}" failures="${t.failed + t.problems}" errors="${t.errored}" time="${seconds(run.durationMs)}">`,
  ];
  for (const file of files) {
    const outcomes = run.outcomes.filter((o) => o.file === file);
    const problems = run.problems.filter((p) => p.file === file && p.diagnostic.severity === 'error');
    const failed = outcomes.filter((o) => o.status === 'failed').length + problems.length;
    const errored = outcomes.filter((o) => o.status === 'errored').length;
    const time = outcomes.reduce((s, o) => s + o.durationMs, 0);
    out.push(
      `  <testsuite name="${xmlText(file)}" tests="${outcomes.length + problems.length}" failures="${failed}" errors="${errored}" skipped="0" time="${seconds(time)}">`,
    );
    for (const { diagnostic: d } of problems) {
      const where = `${file}:${d.start.line}:${d.start.column}`;
      out.push(
        `    <testcase name="${xmlText(`problem at line ${d.start.line}`)}" classname="${xmlText(file)}" file="${xmlText(file)}" line="${d.start.line}" time="0">`,
      );
      out.push(`      <failure message="${xmlText(d.message)}" type="invalid test">${xmlText(`${where}: ${d.message}`)}</failure>`);
      out.push('    </testcase>');
    }
    for (const o of outcomes) {
      const attrs = `name="${xmlText(o.test.title)}" classname="${xmlText(file)}" file="${xmlText(file)}" line="${o.test.start.line}" time="${seconds(o.durationMs)}"`;
      if (o.status === 'passed') {
        out.push(`    <testcase ${attrs}/>`);
        continue;
      }
      out.push(`    <testcase ${attrs}>`);
      if (o.status === 'errored') {
        out.push(`      <error message="${xmlText(o.error ?? 'error')}" type="request failed">${xmlText(o.error ?? '')}</error>`);
      } else {
        const failing = o.assertions.filter((a) => !a.passed);
        const body = failing
          .map((a) => `${a.kind} (line ${a.line}): ${a.message}\nexpected: ${a.expected}\nactual: ${a.actual}`)
          .join('\n\n');
        out.push(
          `      <failure message="${xmlText(failing.map((a) => a.message).join(' '))}" type="assertion">${xmlText(body)}</failure>`,
        );
      }
      out.push('    </testcase>');
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>');
  return `${out.join('\n')}\n`;
}

export function jsonReport(run: RunReport): string {
  return `${JSON.stringify(
    {
      totals: totals(run),
      durationMs: run.durationMs,
      problems: run.problems.map(({ file, diagnostic }) => ({ file, ...diagnostic })),
      tests: run.outcomes.map((o) => ({
        file: o.file,
        line: o.test.start.line,
        title: o.test.title,
        question: o.test.question,
        mode: o.test.mode,
        status: o.status,
        durationMs: o.durationMs,
        ...(o.error ? { error: o.error } : {}),
        assertions: o.assertions,
        ...(o.observed ? { observed: o.observed } : {}),
      })),
    },
    null,
    2,
  )}\n`;
}
