// Assertions checked against what the service returned: pure, so each one is unit tested with a pass and a fail.
// Text is compared folded: NFKC (full-width and half-width forms alike: "ＶＰＮ" is "VPN", "ｶﾅ" is "カナ") and then
// case-folded, as a person reading the answer would not tell them apart.
import { DEFAULT_TOP, type Assertion, type LocatedAssertion } from './testSchema';

export interface ObservedCitation {
  title?: string | null;
  pageNo?: number | null;
  knowledgeBaseId?: string | null;
  faqId?: string | null;
}

export interface ObservedQna {
  id: string;
  question: string;
  answer: string;
  confidence: number;
}

export interface ObservedPage {
  title: string;
  pageNo: number;
  documentId: string;
  text: string;
}

/** What one test's request returned, by mode. */
export type Observation =
  | { mode: 'answer'; text: string; confidence?: number | null; citations: ObservedCitation[] }
  | { mode: 'qna'; results: ObservedQna[] }
  | { mode: 'retrieval'; pages: ObservedPage[] };

export interface AssertionResult {
  kind: LocatedAssertion['kind'];
  passed: boolean;
  /** Why it failed, in a sentence; empty when it passed. */
  message: string;
  expected: string;
  actual: string;
  line: number;
}

/** Below this the service itself treats a Q&A search as "no matching answer". */
export const QNA_MATCH_THRESHOLD = 0.5;

export function fold(text: string): string {
  return text.normalize('NFKC').toUpperCase().toLowerCase();
}

const quote = (s: string): string => JSON.stringify(s);
const pageText = (p: ObservedPage): string => `${p.title} p.${p.pageNo}`;
const citationText = (c: ObservedCitation): string =>
  c.faqId ? `Q&A ${c.faqId}${c.title ? ` (${c.title})` : ''}` : `${c.title ?? c.knowledgeBaseId ?? '?'}${c.pageNo ? ` p.${c.pageNo}` : ''}`;

/** The text that contains/containsAny/notContains read: the answer, the top Q&A's answer, or the top pages. */
export function subjectText(observed: Observation): string {
  if (observed.mode === 'answer') return observed.text;
  if (observed.mode === 'qna') return observed.results[0]?.answer ?? '';
  return observed.pages
    .slice(0, DEFAULT_TOP)
    .map((p) => p.text)
    .join('\n\n');
}

function matchesName(name: string, title: string | null | undefined, id: string | null | undefined): boolean {
  return id === name || (!!title && fold(title) === fold(name));
}

export function evaluate(located: LocatedAssertion, observed: Observation): AssertionResult {
  const r = check(located.assertion, observed);
  return { kind: located.kind, line: located.start.line, ...r, message: r.passed ? '' : r.message };
}

type Check = Omit<AssertionResult, 'kind' | 'line'>;

function check(a: Assertion, observed: Observation): Check {
  const subject = subjectText(observed);
  const folded = fold(subject);
  if ('contains' in a) {
    const missing = a.contains.filter((t) => !folded.includes(fold(t)));
    return {
      passed: !missing.length,
      message: `The ${noun(observed)} does not contain ${missing.map(quote).join(', ')}.`,
      expected: `contains ${a.contains.map(quote).join(' and ')}`,
      actual: subject,
    };
  }
  if ('containsAny' in a) {
    return {
      passed: a.containsAny.some((t) => folded.includes(fold(t))),
      message: `The ${noun(observed)} contains none of ${a.containsAny.map(quote).join(', ')}.`,
      expected: `contains ${a.containsAny.map(quote).join(' or ')}`,
      actual: subject,
    };
  }
  if ('notContains' in a) {
    const found = a.notContains.filter((t) => folded.includes(fold(t)));
    return {
      passed: !found.length,
      message: `The ${noun(observed)} contains ${found.map(quote).join(', ')}, which it must not.`,
      expected: `does not contain ${a.notContains.map(quote).join(' or ')}`,
      actual: subject,
    };
  }
  if ('cites' in a) {
    const citations = observed.mode === 'answer' ? observed.citations : [];
    const ref = a.cites;
    const hit =
      'qna' in ref
        ? citations.some((c) => !!c.faqId && matchesName(ref.qna, c.title, c.faqId))
        : citations.some((c) => !c.faqId && matchesName(ref.document, c.title, c.knowledgeBaseId) && (!ref.page || c.pageNo === ref.page));
    const wanted = 'qna' in ref ? `Q&A ${ref.qna}` : `${ref.document}${ref.page ? ` p.${ref.page}` : ''}`;
    const actual = citations.map(citationText).join('\n') || '(no citations)';
    return { passed: hit, message: `The answer does not cite ${wanted}.`, expected: `cites ${wanted}`, actual };
  }
  if ('matchesQna' in a) {
    const want = a.matchesQna;
    if (observed.mode === 'qna') {
      const top = observed.results[0];
      const hit = !!top && (top.id === want || fold(top.question) === fold(want));
      const actual = top ? `${top.question} (id ${top.id}, confidence ${top.confidence.toFixed(2)})` : '(no Q&A found)';
      return { passed: hit, message: `The top Q&A is not ${quote(want)}.`, expected: want, actual };
    }
    const citations = observed.mode === 'answer' ? observed.citations.filter((c) => c.faqId) : [];
    return {
      passed: citations.some((c) => matchesName(want, c.title, c.faqId)),
      message: `The answer does not come from the Q&A ${quote(want)}.`,
      expected: want,
      actual: citations.map(citationText).join('\n') || '(no Q&A cited)',
    };
  }
  if ('noAnswer' in a) {
    if (observed.mode === 'qna') {
      const matched = observed.results.filter((q) => q.confidence >= QNA_MATCH_THRESHOLD);
      return {
        passed: !matched.length,
        message: 'A Q&A matched a question the service must not answer.',
        expected: `no Q&A with confidence ≥ ${QNA_MATCH_THRESHOLD}`,
        actual: matched.map((q) => `${q.question} (confidence ${q.confidence.toFixed(2)})`).join('\n'),
      };
    }
    const citations = observed.mode === 'answer' ? observed.citations : [];
    return {
      passed: !citations.length,
      message: 'The service answered a question it must not answer (the answer cites sources).',
      expected: 'no answer (no citations)',
      actual: `${subject}\n\n${citations.map(citationText).join('\n')}`.trim(),
    };
  }
  if ('minConfidence' in a) {
    const confidence =
      observed.mode === 'answer' ? (observed.confidence ?? 0) : observed.mode === 'qna' ? (observed.results[0]?.confidence ?? 0) : 0;
    return {
      passed: confidence >= a.minConfidence,
      message: `The confidence ${confidence.toFixed(2)} is below ${a.minConfidence}.`,
      expected: `confidence ≥ ${a.minConfidence}`,
      actual: confidence.toFixed(4),
    };
  }
  const ref = a.retrieves;
  const top = ref.top ?? DEFAULT_TOP;
  const pages = observed.mode === 'retrieval' ? observed.pages.slice(0, top) : [];
  const wanted = `${ref.document}${ref.page ? ` p.${ref.page}` : ''}`;
  return {
    passed: pages.some((p) => matchesName(ref.document, p.title, p.documentId) && (!ref.page || p.pageNo === ref.page)),
    message: `${wanted} is not in the top ${top} pages.`,
    expected: `${wanted} in the top ${top}`,
    actual: pages.map(pageText).join('\n') || '(no pages)',
  };
}

function noun(observed: Observation): string {
  return observed.mode === 'answer' ? 'answer' : observed.mode === 'qna' ? "top Q&A's answer" : 'retrieved text';
}
