// The RARE generate step over a stored build: a pool of the `input_pool_size` best-linked chunks (most
// similar chunks first — they are the ones samples of related information can be drawn from), then
// `num_samples` samples, each a chunk of the pool (drawn with a seeded RNG, so the same build and
// parameters give the same file) with its most similar chunks, `num_information` in all; and for each
// sample `num_questions` question–answer pairs from questionTemplates.ts, taken in turn from the sample's
// chunks so the questions cover its information.
import { tokenSet } from '../search/tokenizer';
import { csvText } from './csvText';
import type { JobControl } from './jobControl';
import { progress, type JobProgress } from './jobRecords';
import type { BuildData } from './rareBuild';
import type { GenerateParams } from './rareParams';
import { askableSentences, keyPhrase, questionFor, questionLanguage } from './questionTemplates';
import { seededRandom } from '../../core/seededRandom';

export const RESULT_COLUMNS = ['sample_id', 'question', 'answer', 'information', 'source_document', 'page_no'] as const;

export interface GeneratedRow {
  sample_id: number;
  question: string;
  answer: string;
  information: string;
  source_document: string;
  page_no: number;
}

export interface GenerateOutcome {
  rows: GeneratedRow[];
  samples: number;
}

export class NothingToAskError extends Error {}

/**
 * Chunk indexes with at least one askable sentence: most links first, then strongest links, then reading
 * order. `askable` is asked only until the pool is full (splitting every chunk into sentences is the costly part).
 */
export function rankPool(data: BuildData, askable: (i: number) => readonly string[], size: number): number[] {
  const weight = data.links.map((list) => list.reduce((s, [, score]) => s + score, 0));
  const order = data.chunks.map((_, i) => i);
  order.sort((a, b) => data.links[b].length - data.links[a].length || weight[b] - weight[a] || a - b);
  const pool: number[] = [];
  for (const i of order) {
    if (pool.length >= size) break;
    if (askable(i).length) pool.push(i);
  }
  return pool;
}

/**
 * IDF over the build's own chunks (ln(1 + (N + 1) / (df + 1)), as the retrieval index computes it), so a
 * generate run depends on its build and parameters only, not on documents added since.
 */
export function chunkIdf(data: BuildData): (term: string) => number {
  const df = new Map<string, number>();
  for (const c of data.chunks) for (const t of tokenSet(c.text)) df.set(t, (df.get(t) ?? 0) + 1);
  const n = data.chunks.length;
  return (term) => Math.log(1 + (n + 1) / ((df.get(term) ?? 0) + 1));
}

export { seededRandom };

/** FNV-1a of a string: the RNG seed from the build run and the parameters. */
export function seedOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

export async function generateRows(
  data: BuildData,
  params: GenerateParams & { language?: string },
  seed: number,
  idf: (term: string) => number,
  control: JobControl,
  report: (p: JobProgress) => void,
): Promise<GenerateOutcome> {
  const cache = new Map<number, string[]>();
  const askable = (i: number): string[] => {
    let list = cache.get(i);
    if (!list) cache.set(i, (list = askableSentences(data.chunks[i].text)));
    return list;
  };
  const pool = rankPool(data, askable, params.input_pool_size);
  if (!pool.length)
    throw new NothingToAskError('the build holds no sentences to ask about: add documents with running text and build again');
  const random = seededRandom(seed);
  const order = shuffled(pool, random);
  const rows: GeneratedRow[] = [];
  let samples = 0;
  report(progress(0, params.num_samples, 'generating questions'));
  for (let s = 0; s < params.num_samples; s++) {
    await control.step();
    const first = order[s % order.length];
    const info = [...new Set([first, ...data.links[first].map(([j]) => j)])].slice(0, params.num_information);
    const information = info.map((i) => data.chunks[i].text).join('\n\n');
    // Each chunk's sentences from a random starting point; chunks taken in turn.
    const queues = info.map((i) => {
      const list = askable(i);
      const at = Math.floor(random() * list.length);
      return { chunk: i, sentences: [...list.slice(at), ...list.slice(0, at)] };
    });
    const used = new Set<string>();
    let made = 0;
    for (let round = 0; made < params.num_questions && queues.some((q) => q.sentences.length); round++) {
      for (const q of queues) {
        if (made >= params.num_questions) break;
        const sentence = q.sentences.shift();
        if (!sentence || used.has(sentence)) continue;
        const phrase = keyPhrase(sentence, idf);
        if (!phrase) continue;
        used.add(sentence);
        const chunk = data.chunks[q.chunk];
        const lang = questionLanguage(params.language, sentence);
        rows.push({
          sample_id: s + 1,
          question: questionFor(phrase, lang, chunk.document, made),
          answer: sentence,
          information,
          source_document: chunk.document,
          page_no: chunk.pageNo,
        });
        made++;
      }
    }
    if (made > 0) samples++;
    report(progress(s + 1, params.num_samples, 'generating questions'));
  }
  return { rows, samples };
}

export function resultCsv(rows: readonly GeneratedRow[]): string {
  return csvText(
    RESULT_COLUMNS,
    rows.map((r) => [r.sample_id, r.question, r.answer, r.information, r.source_document, r.page_no]),
  );
}
