// Pure helpers of the chat host: the generative-answer request built from the options, and the
// question asked from an editor selection. No vscode here (unit tested in plain Node).
import type { GenerativeAnswerRequest } from '../../../api/resources/answers';
import type { ChatOptions } from './protocol';

export interface ThreadContext {
  /** OWN-USER-ID is set: threads work (docs/api.md#identity-headers), so the request is stateful. */
  stateful: boolean;
  /** The conversation's thread from an earlier answer; absent on the first turn. */
  threadId?: string;
}

export function buildAnswerRequest(query: string, options: ChatOptions, thread: ThreadContext): GenerativeAnswerRequest {
  const request: GenerativeAnswerRequest = { query, includeCitations: true, clues: true };
  const from = (['document', 'qna', 'web'] as const).filter((s) => options.sources[s]);
  // None ticked: the service's default range rather than an empty search.
  if (from.length) request.search_from = from;
  const hashtags = [...new Set(options.hashtags.map((h) => h.replace(/^#/, '').trim()).filter(Boolean))];
  if (hashtags.length) request.hashtags = { docsInclude: hashtags, docsIncludeOption: options.hashtagsOperator };
  const ids = [...new Set(options.scope.map((s) => s.id))];
  if (ids.length) request.source = { sharedKnowledgeBaseNodeIds: ids };
  const model = options.model.trim();
  if (model) request.model = model;
  request.temperature = Math.min(1, Math.max(0, Number.isFinite(options.temperature) ? options.temperature : 0));
  if (thread.stateful) {
    request.isStateful = true;
    if (thread.threadId) request.threadId = thread.threadId;
  }
  return request;
}

/** Languages whose selection is prose: asked as it is. Anything else is code and gets a prefix. */
const PROSE = new Set([
  'plaintext',
  'markdown',
  'latex',
  'tex',
  'restructuredtext',
  'asciidoc',
  'org',
  'log',
  'text',
  'mdx',
  'git-commit',
  'scminput',
]);
export const MAX_SELECTION_CHARS = 1_500;

/** The question for "Ask Knowledge Desk" on a selection; undefined when nothing useful is selected. */
export function selectionQuestion(selected: string, languageId: string): string | undefined {
  const text = selected.replace(/\r\n/g, '\n').trim();
  if (!text) return undefined;
  const clipped = text.length > MAX_SELECTION_CHARS ? `${text.slice(0, MAX_SELECTION_CHARS)}…` : text;
  if (PROSE.has(languageId)) return clipped;
  const fence = clipped.includes('```') ? '~~~' : '```';
  return `What does our documentation say about this ${languageId} code?\n\n${fence}${languageId}\n${clipped}\n${fence}`;
}

/** A conversation's title from its first question: one line, at most 60 characters. */
export function titleFrom(question: string): string {
  const line = question.replace(/\s+/g, ' ').trim();
  return line.length > 60 ? `${line.slice(0, 59).trimEnd()}…` : line || 'New chat';
}
