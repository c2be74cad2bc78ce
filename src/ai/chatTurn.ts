// One turn of the @knowledge chat participant, free of vscode: the host hands in a sink with the few
// ChatResponseStream calls used (links are strings, the host makes URIs of them), so the same code runs
// in the real host and in unit tests against the real local service. What the chat shows goes through
// @vscode/l10n (the host hands it VS Code's bundle at activation): English unless the display language has one.
import * as l10n from '@vscode/l10n';
import type { ApiClient } from '../api/client';
import { sendsOwnUserId } from '../api/identity';
import { charsOver } from '../core/charCount';
import { excerpt } from '../core/excerpt';
import type { Citation, GenerativeAnswer } from '../api/schemas/answers';
import { clip } from './budget';
import { answerRequestFor } from './knowledgeTools';
import { describeToolError, type ErrorHints, type ToolErrorKind } from './toolErrors';
import { DEFAULT_RESULTS, QUESTION_MAX_CHARS, ToolInputError, answerInput, parseToolInput, qnaInput, retrieveInput } from './toolInput';
import type { ChatLink } from './chatLinks';
import { RegionNotConfiguredError } from './errors';
import { AnswerStreamError } from '../api/stream/answerStream';

export type ChatCommand = 'ask' | 'docs' | 'faq';

export interface ChatSink {
  progress(message: string): void;
  markdown(text: string): void;
  anchor(link: ChatLink, title: string): void;
  reference(link: ChatLink): void;
  button(command: { command: string; title: string; arguments?: unknown[] }): void;
}

export interface ChatTurnDeps {
  /**
   * The active connection's client. Whether a turn keeps a thread is read from the identity it sends (the
   * connection's own, else the identity settings): the service keeps threads only for an OWN-USER-ID.
   */
  client(): Promise<ApiClient>;
  regionLabel: string;
  /** Remembers a citation for its link (the viewer needs the cited text and the answer); returns its key. */
  rememberCitation(citation: Citation, question: string, answer: string): string;
  autoRegisterCandidates: boolean;
  hints: ErrorHints;
  commands: { setApiKey: string; selectRegion: string; showLog: string };
  log?(message: string): void;
}

/** Kept in the chat result's metadata: the next turn of the same chat continues the thread. */
export interface TurnMetadata {
  command: ChatCommand;
  threadId?: string;
  followUp?: string;
  errorKind?: ToolErrorKind;
}

export interface TurnResult {
  metadata: TurnMetadata;
}

/** The thread of the latest answer in this chat (history metadata, newest last). */
export function threadFromHistory(metadata: readonly unknown[]): string | undefined {
  for (let i = metadata.length - 1; i >= 0; i--) {
    const threadId = (metadata[i] as { threadId?: unknown } | undefined)?.threadId;
    if (typeof threadId === 'string' && threadId) return threadId;
  }
  return undefined;
}

export async function runChatTurn(
  prompt: string,
  command: ChatCommand,
  thread: string | undefined,
  deps: ChatTurnDeps,
  sink: ChatSink,
  signal: AbortSignal,
): Promise<TurnResult> {
  try {
    if (command === 'docs') return await docs(prompt, deps, sink, signal);
    if (command === 'faq') return await faq(prompt, deps, sink, signal);
    return await ask(prompt, thread, deps, sink, signal);
  } catch (error) {
    return fail(error, command, deps, sink, signal, thread);
  }
}

async function ask(
  prompt: string,
  thread: string | undefined,
  deps: ChatTurnDeps,
  sink: ChatSink,
  signal: AbortSignal,
): Promise<TurnResult> {
  const input = parseToolInput(answerInput, { question: checkedQuestion(prompt) });
  sink.progress(l10n.t('Asking Knowledge Desk ({0})…', deps.regionLabel));
  const client = await deps.client();
  const request = {
    ...(await answerRequestFor(client, input, signal)),
    ...(sendsOwnUserId(client.config.identity) ? { isStateful: true, ...(thread ? { threadId: thread } : {}) } : {}),
  };
  let shown = '';
  let result: GenerativeAnswer | undefined;
  try {
    for await (const chunk of client.answers.stream(request, { signal })) {
      if (chunk.type === 'done') {
        result = chunk.result;
        break;
      }
      shown = emitAnswer(sink, shown, chunk.answer);
    }
  } catch (error) {
    // The part that arrived stays; the error follows it.
    if (error instanceof AnswerStreamError) shown = emitAnswer(sink, shown, error.partialAnswer);
    throw new FailedAfterAnswer(shown, error);
  }
  if (!result || signal.aborted) return { metadata: { command: 'ask', threadId: thread } };
  shown = emitAnswer(sink, shown, result.answer);
  if (!shown.trim()) sink.markdown(`_${l10n.t('The service returned an empty answer.')}_`);
  const threadId = result.threadId ?? thread;
  const cited = result.citations.filter((c) => c.title || c.knowledgeBaseId || c.faqId || c.url);
  if (cited.length) {
    sink.markdown(`\n\n**${l10n.t('Sources')}**\n`);
    for (const c of cited) {
      const link = citationLink(c, input.question, result.answer, deps);
      sink.markdown(`\n${c.index}. `);
      const title = c.title || c.url || 'Q&A';
      // The page as text after the link: VS Code 1.139's chat view shows a link as its document's name, not its title.
      sink.anchor(link, title);
      if (c.pageNo) sink.markdown(` — ${l10n.t('page {0}', c.pageNo)}`);
      if (c.text) sink.markdown(` — ${escapeMarkdown(excerpt(c.text, 160))}`);
      sink.reference(link);
    }
  }
  return { metadata: { command: 'ask', threadId: threadId ?? undefined, followUp: result.fuQuestion?.trim() || undefined } };
}

/** The answer stream failed after `shownAnswer` was shown; `cause` is the failure itself. */
class FailedAfterAnswer extends Error {
  override readonly name = 'FailedAfterAnswer';
  constructor(
    readonly shownAnswer: string,
    override readonly cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
  }
}

/** Streams what is new; an answer the service rewrote (rare) is shown again whole, after a rule. */
function emitAnswer(sink: ChatSink, shown: string, answer: string): string {
  if (answer === shown) return shown;
  if (answer.startsWith(shown)) sink.markdown(answer.slice(shown.length));
  else sink.markdown(`\n\n---\n_${l10n.t('Revised answer:')}_\n\n${answer}`);
  return answer;
}

function citationLink(c: Citation, question: string, answer: string, deps: ChatTurnDeps): ChatLink {
  const label = c.title || c.url || `Q&A ${c.index}`;
  if (c.faqId && !c.knowledgeBaseId) return { kind: 'qna', id: c.faqId, label };
  const key = deps.rememberCitation(c, question, answer);
  return { kind: 'citation', key, kbId: c.knowledgeBaseId ?? undefined, pageNo: c.pageNo ?? undefined, label };
}

async function docs(prompt: string, deps: ChatTurnDeps, sink: ChatSink, signal: AbortSignal): Promise<TurnResult> {
  const input = parseToolInput(retrieveInput, { question: checkedQuestion(prompt) });
  sink.progress(l10n.t('Searching the knowledge base ({0})…', deps.regionLabel));
  const client = await deps.client();
  const items = (await client.answers.retrieve({ question: input.question, maxDocumentClues: DEFAULT_RESULTS }, { signal })).slice(
    0,
    DEFAULT_RESULTS,
  );
  if (!items.length) {
    sink.markdown(l10n.t('No pages of the knowledge base match this question.'));
    return { metadata: { command: 'docs' } };
  }
  sink.markdown(`${items.length === 1 ? l10n.t('The top {0} page:', 1) : l10n.t('The top {0} pages:', items.length)}\n`);
  items.forEach((item, i) => {
    const link: ChatLink = {
      kind: 'document',
      kbId: item.kb_id,
      pageNo: item.pageNo,
      key: deps.rememberCitation(
        { index: i + 1, knowledgeBaseId: item.kb_id, pageNo: item.pageNo, title: item.title, text: item.text },
        input.question,
        '',
      ),
      label: item.title,
    };
    sink.markdown(`\n${i + 1}. `);
    sink.anchor(link, item.title);
    sink.markdown(` — ${l10n.t('page {0}', item.pageNo)}`);
    sink.markdown(`\n\n   > ${escapeMarkdown(excerpt(item.text, 300))}\n`);
    sink.reference(link);
  });
  return { metadata: { command: 'docs' } };
}

async function faq(prompt: string, deps: ChatTurnDeps, sink: ChatSink, signal: AbortSignal): Promise<TurnResult> {
  const input = parseToolInput(qnaInput, { question: checkedQuestion(prompt) });
  sink.progress(l10n.t('Searching Q&As ({0})…', deps.regionLabel));
  const client = await deps.client();
  const found = await client.faq.search(
    { query: input.question, maxResults: DEFAULT_RESULTS, format: 'text', autoRegisterCandidates: deps.autoRegisterCandidates },
    { signal },
  );
  if (!found.result.length) {
    sink.markdown(l10n.t('No Q&A matches this question. Ask without `/faq` for an answer from the documents.'));
    return { metadata: { command: 'faq' } };
  }
  found.result.slice(0, DEFAULT_RESULTS).forEach((item, i) => {
    sink.markdown(`${i ? '\n\n' : ''}**${i + 1}. `);
    sink.anchor({ kind: 'qna', id: item.id, label: item.question }, clip(item.question, 200));
    sink.markdown(`** — ${l10n.t('confidence {0}%', Math.round(item.confidence * 100))}\n\n${clip(item.answer, 1_500)}`);
  });
  return { metadata: { command: 'faq' } };
}

function fail(
  thrown: unknown,
  command: ChatCommand,
  deps: ChatTurnDeps,
  sink: ChatSink,
  signal: AbortSignal,
  thread: string | undefined,
): TurnResult {
  const shownAnswer = thrown instanceof FailedAfterAnswer ? thrown.shownAnswer : '';
  const error = thrown instanceof FailedAfterAnswer ? thrown.cause : thrown;
  const { kind, message } = describeToolError(error, deps.hints);
  if (kind === 'cancelled' || signal.aborted) return { metadata: { command, threadId: thread } };
  deps.log?.(`chat ${command} failed (${kind}): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  sink.markdown(`${shownAnswer ? '\n\n---\n' : ''}**Knowledge Desk:** ${escapeMarkdown(message)}`);
  if (kind === 'key') sink.button({ command: deps.commands.setApiKey, title: l10n.t('Set API Key') });
  if (kind === 'key' || kind === 'unreachable' || error instanceof RegionNotConfiguredError)
    sink.button({ command: deps.commands.selectRegion, title: l10n.t('Select Region') });
  if (kind === 'service') sink.button({ command: deps.commands.showLog, title: l10n.t('Show Log') });
  return { metadata: { command, threadId: thread, errorKind: kind } };
}

/**
 * The prompt as the question, or a ToolInputError in the display language. The tools' schemas say the same in
 * English for a model (toolInput.ts); in the chat a person typed the prompt, so they read it in their language.
 */
function checkedQuestion(prompt: string): string {
  const question = prompt.trim();
  if (!question) throw new ToolInputError(l10n.t('question is empty: send the question in words.'));
  if (charsOver(question, QUESTION_MAX_CHARS) !== undefined)
    throw new ToolInputError(
      l10n.t('question is longer than {0} characters: shorten it to the question itself.', QUESTION_MAX_CHARS.toLocaleString('en-US')),
    );
  return question;
}

function escapeMarkdown(text: string): string {
  return text.replace(/([\\`*_[\]<>#|])/g, '\\$1');
}
