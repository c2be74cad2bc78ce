// Phrases posted to add_phrase, kept durably in the journal: collection `nlu.train` (learned) and
// `nlu.test` (stored for evaluation, never learned). Each entity of a train phrase becomes a gazetteer
// entry for its tag (its token, trimmed), so the token is recognised anywhere afterwards; the latest
// phrase wins when the same token is taught with another tag. Reloaded on start, in teaching order.
import { createHash } from 'node:crypto';
import type { Journal } from '../store/journal';
import { BUILTIN_TAGS } from '../../core/entityTags';
import type { RecognizedEntity } from './entity';
import { Gazetteer } from './gazetteer';
import { Recognizer, type Recognition } from './recognizer';

export type DataType = 'train' | 'test';

export interface StoredPhrase {
  text: string;
  entities: RecognizedEntity[];
  /** Teaching order (the journal's maps do not keep it across a compaction). */
  seq: number;
  addedAt: number;
}

export interface Evaluation {
  phrases: number;
  expected: number;
  found: number;
  correct: number;
  precision: number;
  recall: number;
  f1: number;
}

const COLLECTION: Record<DataType, string> = { train: 'nlu.train', test: 'nlu.test' };

export class PhraseBook {
  private readonly taught = new Gazetteer();
  readonly recognizer = new Recognizer(this.taught);
  private seq = 0;

  constructor(private readonly journal: Journal) {
    for (const p of [...this.phrases('train'), ...this.phrases('test')]) this.seq = Math.max(this.seq, p.seq);
    for (const phrase of [...this.phrases('train')].sort((a, b) => a.seq - b.seq)) this.learn(phrase);
  }

  infer(text: string): Recognition {
    return this.recognizer.recognize(text);
  }

  /**
   * Stores a phrase (already validated: entities inside `text`, tokens equal to their slices) and, for
   * train, learns it. The same phrase posted again is stored once (its id is a hash of its content).
   */
  async add(dataType: DataType, text: string, entities: RecognizedEntity[]): Promise<{ id: string; learned: number }> {
    const id = phraseId(text, entities);
    const phrase: StoredPhrase = { text, entities, seq: ++this.seq, addedAt: Date.now() };
    await this.journal.commit([{ c: COLLECTION[dataType], k: id, v: phrase }]);
    return { id, learned: dataType === 'train' ? this.learn(phrase) : 0 };
  }

  phrases(dataType: DataType): IterableIterator<StoredPhrase> {
    return this.journal.collection<StoredPhrase>(COLLECTION[dataType]).values();
  }

  /** The eight built-in tags and every tag taught through train. */
  tags(): string[] {
    return [...new Set<string>([...BUILTIN_TAGS, ...this.taught.tags()])];
  }

  get taughtEntries(): number {
    return this.taught.size;
  }

  /** Exact-match scores (same span and tag) of the current recognizer on the stored test phrases. */
  evaluate(): Evaluation {
    let phrases = 0;
    let expected = 0;
    let found = 0;
    let correct = 0;
    for (const p of this.phrases('test')) {
      phrases++;
      const want = new Set(p.entities.map(key));
      const got = this.recognizer.recognize(p.text).entities.map(key);
      expected += want.size;
      found += got.length;
      correct += got.filter((k) => want.has(k)).length;
    }
    const precision = found ? correct / found : 0;
    const recall = expected ? correct / expected : 0;
    const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
    return { phrases, expected, found, correct, precision, recall, f1 };
  }

  private learn(phrase: StoredPhrase): number {
    let changed = 0;
    for (const e of phrase.entities) if (this.taught.add(e.token.trim(), e.tag)) changed++;
    return changed;
  }
}

const key = (e: Pick<RecognizedEntity, 'startIndex' | 'endIndex' | 'tag'>): string => `${e.startIndex}:${e.endIndex}:${e.tag}`;

function phraseId(text: string, entities: RecognizedEntity[]): string {
  const canonical = JSON.stringify([text, entities.map((e) => [e.startIndex, e.endIndex, e.tag])]);
  return createHash('sha256').update(canonical).digest('base64url').slice(0, 22);
}
