// Generative answers in the local service (extractive, model local-extractive; docs/api.md#extractive-answers): resolves the
// thread, gathers sources (top passages under the request's filters, and the best Q&A), chooses sentences,
// and returns a plan that the handler renders once (sync) or line by line (stream). Every request field is
// honoured or, where the local service cannot, named in `notes`.
import { randomUUID } from 'node:crypto';
import type { Identity } from '../http/context';
import type { KbStore } from '../kb/kbStore';
import type { NodeRecord } from '../kb/nodeRecord';
import { qnaClueId } from '../search/clueId';
import type { DocumentScope } from '../search/filters';
import type { Retrieval } from '../search/retrieval';
import type { Journal } from '../store/journal';
import type { FaqStore } from '../faq/faqStore';
import { LOCAL_MODEL, type AnswerPlan } from './answerBody';
import type { AnswerRequest } from './answerSchema';
import { chooseSentences, citeSentences, qnaAnswer, type AnswerSource, type ChosenSentence } from './extractive';
import { FaqLookup, QNA_ANSWERS_ALONE } from './faqSource';
import { classifyIntent, followUpQuestion, languageOf, type Lang } from './intent';
import { previewFields } from './preview';
import { rewriteFollowUp, ThreadStore } from './threads';
import type { AnswerWriter } from './answerWriter';
import { shouldWrite, writeAnswer } from './writtenAnswer';

/** Passages read for one answer. */
export const ANSWER_PASSAGES = 6;
const ANSWER_WEIGHTS = { bm25: 9, text: 1, title: 0 };

export interface PreparedAnswer {
  plan: AnswerPlan;
  /** Records the turn in its thread (when there is one to keep); run before the final line. */
  commit(): Promise<void>;
}

export class AnswerService {
  readonly counts = { sync: 0, streamed: 0, closedEarly: 0, noAnswer: 0 };
  private readonly faqs: FaqLookup;
  private readonly threads: ThreadStore;

  constructor(
    private readonly deps: {
      retrieval: Retrieval;
      kb: KbStore;
      journal: Journal;
      /** The Q&A store, whose index answers Q&A sources. */
      faqs: FaqStore;
      /** The writer of answers (docs/local-service.md#writer), read per answer: none (the default) keeps them extractive. */
      writer?: () => { writer: AnswerWriter; timeoutMs: number } | undefined;
    },
  ) {
    this.faqs = new FaqLookup(deps.faqs);
    this.threads = new ThreadStore(deps.journal);
  }

  async prepare(request: AnswerRequest, identity: Identity, baseUrl: string): Promise<PreparedAnswer> {
    const notes: string[] = [];
    const user = identity.ownUserId ?? identity.userEmail;
    const lang = languageOf(request.query);
    const threadId = request.isStateful ? request.threadId || randomUUID() : undefined;
    let query = request.query;
    if (threadId && user) {
      query = rewriteFollowUp(request.query, this.threads.get(threadId, user)?.turns.at(-1)?.rewrittenQuery);
    } else if (threadId) {
      notes.push(
        'No conversation history is kept without a user identity (OWN-USER-ID or USER-EMAIL): this query was answered on its own.',
      );
    }
    for (const note of ignoredFieldNotes(request)) notes.push(note);

    const from = new Set(request.search_from?.length ? request.search_from : ['document', 'qna']);
    const sources: AnswerSource[] = [];
    if (from.has('qna')) {
      const h = request.hashtags;
      await this.deps.faqs.indexLoaded; // the snapshot is read after the service listens
      const faq = this.faqs.best(query, {
        include: h?.qnaInclude ?? [],
        includeOption: h?.qnaIncludeOption ?? 'or',
        exclude: h?.qnaExclude ?? [],
        excludeOption: h?.qnaExcludeOption ?? 'or',
      });
      if (faq)
        sources.push({
          kind: 'qna',
          rank: 0,
          text: faq.answer,
          clueId: qnaClueId(faq.record.id),
          title: faq.record.question,
          faq: { id: faq.record.id, question: faq.record.question, confidence: faq.confidence },
        });
    }
    if (from.has('document')) {
      // Only the passages an answer can use are built (not one result per matching passage).
      const hits = await this.deps.retrieval.searchPassages(query, ANSWER_WEIGHTS, this.scope(request, user), ANSWER_PASSAGES);
      for (const hit of hits)
        sources.push({ kind: 'document', rank: sources.length, text: hit.passage.text, clueId: hit.clueId, title: hit.node.name, hit });
    }
    // A question that matches a Q&A is answered by that Q&A, whole: its answer was written for the question,
    // while sentence coverage would drop a short one ("Run df -h.") and let any passage naming the words win.
    // A weaker match (it may be another question that shares words) answers only where no passage does.
    const qna = sources.find((s) => s.kind === 'qna');
    const alone = qna && (!from.has('document') || (qna.faq?.confidence ?? 0) >= QNA_ANSWERS_ALONE);
    let chosen = qna && alone ? qnaAnswer(qna) : [];
    if (!chosen.length) {
      // Term weights come from the retrieval index: wait for its start-up rebuild (a Q&A-only answer did not).
      await this.deps.retrieval.ready();
      const passages = sources.filter((s) => s.kind !== 'qna');
      chosen = citeSentences(chooseSentences(this.deps.retrieval.terms(query), passages));
      // The clue of a cited passage names the sentences too, as its citation does.
      for (const c of chosen) sources[sources.findIndex((s) => s.rank === c.source.rank)] = c.source;
      if (!chosen.length && qna) chosen = qnaAnswer(qna);
    }
    if (!chosen.length) this.counts.noAnswer++;

    const plan: AnswerPlan = {
      query: request.query,
      lang,
      format: request.answerFormat,
      chosen,
      sources,
      intent: classifyIntent(request.query),
      includeCitations: request.includeCitations,
      clues: request.clues,
      clueText: request.clueText,
      notes,
      folderOf: (node) => this.deps.kb.ancestors(node).at(-1)?.name ?? null,
      extra: previewFields(request, chosen, baseUrl, notes),
    };
    const writing = this.deps.writer?.();
    if (writing && shouldWrite(plan, !!alone && chosen.length > 0))
      plan.write = (signal, streaming) => writeAnswer(plan, writing.writer, { timeoutMs: writing.timeoutMs, signal, streaming });
    if (threadId) plan.stateful = { threadId, fuQuestion: this.followUp(sources, chosen, lang), rewrittenQuery: query };
    const commit = async (): Promise<void> => {
      if (threadId && user) await this.threads.append(threadId, user, { query: request.query, rewrittenQuery: query, at: Date.now() });
    };
    return { plan, commit };
  }

  private scope(request: AnswerRequest, user: string | undefined): DocumentScope {
    const h = request.hashtags;
    const scope: DocumentScope = {
      sharedIds: [...(request.source?.sharedKnowledgeBaseNodeIds ?? []), ...(request.knowledgeBaseIds ?? []), ...(request.folderIds ?? [])],
      hashtags: h?.docsInclude ?? [],
      hashtagsOperator: h?.docsIncludeOption ?? 'or',
      excludeHashtags: h?.docsExclude ?? [],
      excludeHashtagsOperator: h?.docsExcludeOption ?? 'or',
    };
    const personal = request.source?.personalKnowledgeBaseNodeIds ?? [];
    if (personal.length && user) scope.personal = { userId: user, ids: personal };
    return scope;
  }

  /** From the best passage the answer did not use; '' when every passage read was used (or none was found). */
  private followUp(sources: AnswerSource[], chosen: ChosenSentence[], lang: Lang): string {
    const unused = sources.find(
      (s) => s.kind === 'document' && !chosen.some((c) => c.source === s) && !chosen.some((c) => c.source.text === s.text),
    );
    return unused?.hit ? followUpQuestion(unused.text, titleOf(unused.hit.node), lang) : '';
  }
}

function titleOf(node: NodeRecord): string {
  return node.name.replace(/\.[^.]{1,8}$/, '');
}

function ignoredFieldNotes(request: AnswerRequest): string[] {
  const notes: string[] = [];
  if (request.search_from?.includes('web') || request.source?.webSites?.length)
    notes.push('Web search is not available locally: search_from "web" and source.webSites are ignored.');
  if (request.model && request.model !== LOCAL_MODEL)
    notes.push(`The model "${request.model}" is not available locally: answers are extracted from the sources (${LOCAL_MODEL}).`);
  if (request.temperature) notes.push('temperature has no effect on extractive answers.');
  if (request.promptGroupId) notes.push('promptGroupId is ignored: the local service uses no prompts.');
  return notes;
}
