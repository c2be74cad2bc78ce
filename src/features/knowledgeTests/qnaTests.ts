// Generate Tests from Q&As: a knowledge test file that asks each Q&A's question and its similar questions as a
// Q&A search and asserts that this Q&A comes first (matchesQna). Pure (no vscode): unit-tested in Node.
import { stringify } from 'yaml';
import { charCount } from '../../core/charCount';
import { QUESTION_MAX_CHARS } from '../../core/questionLimit';

export interface QnaForTests {
  id: string;
  question: string;
  similarQuestions: readonly string[];
}

/**
 * The file's YAML. matchesQna names the Q&A by its question rather than its id: the same file then runs against
 * another deployment holding the same Q&As (the CLI in CI), and a reader sees what is expected.
 */
export function qnaTestsYaml(qnas: readonly QnaForTests[], description: string): string {
  const tests: Array<Record<string, unknown>> = [];
  for (const qa of qnas) {
    const asked = new Set<string>();
    for (const question of [qa.question, ...qa.similarQuestions].map((q) => q.trim())) {
      // A question the service would refuse (empty, too long) or one asked already makes no test.
      if (!question || charCount(question) > QUESTION_MAX_CHARS || asked.has(question)) continue;
      asked.add(question);
      tests.push({ question, mode: 'qna', assert: [{ matchesQna: qa.question.trim() }] });
    }
  }
  return stringify({ description, tests }, { lineWidth: 0 });
}

/** A file name for the generated tests that does not exist yet: `qna-<date>.kdtest.yaml`, then `-2`, `-3` … */
export function generatedFileName(date: Date, exists: (name: string) => boolean): string {
  const stamp = date.toISOString().slice(0, 10);
  for (let n = 1; ; n++) {
    const name = `qna-${stamp}${n > 1 ? `-${n}` : ''}.kdtest.yaml`;
    if (!exists(name)) return name;
  }
}
