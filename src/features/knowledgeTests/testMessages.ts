// What the Test Explorer shows of one knowledge test's outcome: the failure messages (each with expected and
// actual, which the explorer shows as a diff) and the run output (the answer, its citations as links to the
// citation viewer, the confidence, each assertion's verdict). Pure (no vscode; @vscode/l10n for the words), so it
// is unit-tested in Node.
import * as l10n from '@vscode/l10n';
import type { ObservedCitation, Observation } from '../../core/knowledgeTests/evaluate';
import type { TestOutcome } from '../../ai/knowledgeTestRunner';

export interface FailureMessage {
  message: string;
  /** Shown as the diff's left and right sides; absent for a request that failed (nothing to compare). */
  expected?: string;
  actual?: string;
  /** 1-based line in the test file: the failing assertion's, or the test's. */
  line: number;
}

export function failureMessages(outcome: TestOutcome): FailureMessage[] {
  if (outcome.status === 'errored') {
    return [{ message: l10n.t('The request failed: {0}', outcome.error ?? '?'), line: outcome.test.start.line }];
  }
  return outcome.assertions
    .filter((a) => !a.passed)
    .map((a) => ({ message: `${a.kind}: ${a.message}`, expected: a.expected, actual: a.actual, line: a.line }));
}

/** A link that opens a citation in the viewer, or undefined when the citation names nothing to open. */
export type CitationLink = (citation: ObservedCitation) => string | undefined;

const CRLF = '\r\n';

/** The run output of one test: CRLF line endings, as the Test Results terminal needs them. */
export function outputText(outcome: TestOutcome, link: CitationLink): string {
  const lines: string[] = [];
  const mark = outcome.status === 'passed' ? '✓' : '✗';
  lines.push(`${mark} ${outcome.test.title}`);
  lines.push(`  ${l10n.t('Question: {0}', outcome.test.question)}`);
  if (outcome.error) lines.push(`  ${l10n.t('Error: {0}', outcome.error)}`);
  if (outcome.observed) lines.push(...observedLines(outcome.observed, link));
  for (const a of outcome.assertions) {
    lines.push(`  ${a.passed ? '✓' : '✗'} ${a.kind}: ${a.passed ? a.expected : a.message}`);
  }
  lines.push('');
  return lines.map((l) => l.replace(/\r?\n/g, `${CRLF}    `)).join(CRLF) + CRLF;
}

function observedLines(o: Observation, link: CitationLink): string[] {
  const lines: string[] = [];
  if (o.mode === 'answer') {
    lines.push(`  ${l10n.t('Answer:')}`, ...indent(o.text || l10n.t('(empty)')));
    if (o.confidence !== undefined && o.confidence !== null) lines.push(`  ${l10n.t('Confidence: {0}', o.confidence.toFixed(2))}`);
    lines.push(`  ${l10n.t('Citations: {0}', o.citations.length)}`);
    o.citations.forEach((c, i) => {
      const name = c.faqId ? `Q&A ${c.title ?? c.faqId}` : `${c.title ?? c.knowledgeBaseId ?? '?'}${c.pageNo ? ` p.${c.pageNo}` : ''}`;
      const url = link(c);
      lines.push(`    [${i + 1}] ${name}${url ? `  ${url}` : ''}`);
    });
  } else if (o.mode === 'qna') {
    lines.push(`  ${l10n.t('Q&As found: {0}', o.results.length)}`);
    o.results.slice(0, 5).forEach((q, i) => {
      const url = link({ faqId: q.id, title: q.question });
      lines.push(`    [${i + 1}] ${q.question} (${l10n.t('confidence {0}', q.confidence.toFixed(2))})${url ? `  ${url}` : ''}`);
    });
    if (o.results[0]) lines.push(`  ${l10n.t('Answer:')}`, ...indent(o.results[0].answer));
  } else {
    lines.push(`  ${l10n.t('Pages retrieved: {0}', o.pages.length)}`);
    o.pages.slice(0, 5).forEach((p, i) => {
      const url = link({ knowledgeBaseId: p.documentId, pageNo: p.pageNo, title: p.title });
      lines.push(`    [${i + 1}] ${p.title} p.${p.pageNo}${url ? `  ${url}` : ''}`);
    });
  }
  return lines;
}

function indent(text: string): string[] {
  return text.split(/\r?\n/).map((l) => `    ${l}`);
}

/**
 * The answer and its citations as Markdown for a failed test's peek: a TestMessage cannot hold the output's
 * links, but a trusted Markdown message can hold command links (`openCommand` builds them).
 */
export function citationsMarkdown(outcome: TestOutcome, openCommand: CitationLink): string | undefined {
  const o = outcome.observed;
  if (!o) return undefined;
  const escape = (s: string): string => s.replace(/[\\`*_[\]()<>|]/g, '\\$&');
  const items: string[] = [];
  if (o.mode === 'answer') {
    o.citations.forEach((c, i) => {
      const name = c.faqId ? `Q&A ${c.title ?? c.faqId}` : `${c.title ?? c.knowledgeBaseId ?? '?'}${c.pageNo ? ` p.${c.pageNo}` : ''}`;
      const url = openCommand(c);
      items.push(`${i + 1}. ${url ? `[${escape(name)}](${url})` : escape(name)}`);
    });
  } else if (o.mode === 'qna') {
    o.results.slice(0, 5).forEach((q, i) => {
      const url = openCommand({ faqId: q.id, title: q.question });
      items.push(`${i + 1}. ${url ? `[${escape(q.question)}](${url})` : escape(q.question)} (${q.confidence.toFixed(2)})`);
    });
  } else {
    o.pages.slice(0, 5).forEach((p, i) => {
      const url = openCommand({ knowledgeBaseId: p.documentId, pageNo: p.pageNo, title: p.title });
      const name = `${p.title} p.${p.pageNo}`;
      items.push(`${i + 1}. ${url ? `[${escape(name)}](${url})` : escape(name)}`);
    });
  }
  const head =
    o.mode === 'answer' ? l10n.t('Citations of the answer') : o.mode === 'qna' ? l10n.t('Q&As found') : l10n.t('Pages retrieved');
  const confidence =
    o.mode === 'answer' && typeof o.confidence === 'number' ? ` · ${l10n.t('Confidence: {0}', o.confidence.toFixed(2))}` : '';
  return `**${head}**${confidence}\n\n${items.join('\n') || l10n.t('(none)')}`;
}
