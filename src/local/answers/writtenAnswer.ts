// Runs the configured writer for one answer plan (docs/local-service.md#writer). Each step sets `plan.written`
// to the answer so far, which answerBody renders in place of the extractive sentences; the stream writes one
// line per step. A writer that fails, stalls longer than the timeout, or sends nothing leaves the extractive
// answer, with a note saying so. If part of the written answer was already streamed, the final answer keeps it
// (a stream's answer only grows) and adds the note and the extractive sentences after it.
import type { AnswerPlan } from './answerBody';
import { dropUnknownMarkers, type AnswerWriter, type WriterSource } from './answerWriter';
import type { Lang } from './intent';

/** Default wait for the writer's first text and between its texts (a local model may load for a while first). */
export const WRITER_TIMEOUT_MS = 30_000;

const FELL_BACK: Record<Lang, (reason: string) => string> = {
  en: (reason) => `The language model could not write this answer (${reason}): the answer is extracted from the sources instead.`,
  ja: (reason) => `言語モデルがこの回答を書けませんでした（${reason}）。代わりに出典から抜き出した回答です。`,
};

export class WriterTimeout extends Error {}

/** Whether a plan is written: there is something to write from, and no Q&A already answers it whole. */
export function shouldWrite(plan: AnswerPlan, qnaAlone: boolean): boolean {
  return !qnaAlone && plan.sources.length > 0 && plan.intent === 'SEARCH';
}

/**
 * Steps of the written answer (one per text received); when it ends, `plan.written` or the fallback is final.
 * `streaming`: each step is shown as it comes, so a fallback keeps what was shown.
 */
export async function* writeAnswer(
  plan: AnswerPlan,
  writer: AnswerWriter,
  { timeoutMs, signal, streaming }: { timeoutMs: number; signal: AbortSignal; streaming: boolean },
): AsyncGenerator<void> {
  const sources: WriterSource[] = plan.sources.map((s, i) => ({
    index: i + 1,
    title: s.title,
    pageNo: s.hit?.passage.pageNo ?? null,
    text: s.text,
  }));
  const upstream = new AbortController();
  const stopUpstream = (): void => upstream.abort(signal.reason);
  signal.addEventListener('abort', stopUpstream, { once: true });
  let text = '';
  let shown = '';
  try {
    const iterator = writer.write({ question: plan.query, lang: plan.lang, sources, signal: upstream.signal })[Symbol.asyncIterator]();
    for (;;) {
      const next = await withTimeout(iterator.next(), timeoutMs, upstream);
      if (next.done) break;
      text += next.value;
      // Only whole markers and no trailing space: every line's answer then extends the previous one.
      const visible = dropUnknownMarkers(text.replace(/\s*\[[\d,\s]*$/, ''), sources.length).trimEnd();
      if (visible === shown) continue;
      shown = visible;
      plan.written = { text: visible, model: writer.model };
      yield;
    }
    if (signal.aborted) return;
    const final = dropUnknownMarkers(text, sources.length).trim();
    if (!final) throw new Error('the model returned no text');
    plan.written = { text: final, model: writer.model };
  } catch (error) {
    upstream.abort();
    if (signal.aborted) return;
    const note = FELL_BACK[plan.lang](reasonOf(error));
    plan.notes.push(note);
    // Nothing shown yet: the extractive answer as it would be without a writer (the note is in `notes`).
    if (!streaming) shown = '';
    plan.written = shown ? { text: `${shown}\n\n*${note}*${extractiveTail(plan)}`, model: plan.written?.model ?? writer.model } : undefined;
    if (shown) yield;
  } finally {
    signal.removeEventListener('abort', stopUpstream);
  }
}

/** The extractive sentences, cited by source number (the numbering of the written part above them). */
function extractiveTail(plan: AnswerPlan): string {
  const lines = plan.chosen.map((c) => `${c.text} [${plan.sources.indexOf(c.source) + 1}]`);
  return lines.length ? `\n\n${lines.join('\n\n')}` : '';
}

function withTimeout<T>(promise: Promise<T>, ms: number, upstream: AbortController): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new WriterTimeout(`no reply within ${Math.round(ms / 100) / 10} s`);
      upstream.abort(error);
      reject(error);
    }, ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\s+/g, ' ').slice(0, 200) || 'unknown error';
}
