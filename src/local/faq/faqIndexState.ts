// The Q&A index in an index snapshot (store/indexSnapshot.ts): its state as typed arrays, plus a fingerprint of
// each Q&A's indexed texts. At start the snapshot's index is reconciled with the journal's records: a Q&A
// whose fingerprint differs (changed after the snapshot), or that the snapshot lacks, is indexed again; one
// the snapshot has but the journal does not (deleted, turned off, or lost in a crash) is removed.
import { type SectionReader, SnapshotFormatError, bytes, stringsBytes, type Sections } from '../store/indexSnapshot';
import type { FaqIndexState, IndexedFaq } from './faqTexts';

export interface SavedFaqIndex {
  state: FaqIndexState;
  /** Per Q&A of `state.faqIds`: faqFingerprint of the texts it was indexed with. */
  fingerprints: Float64Array;
}

/** 53 bits of two FNV-1a variants over the question and similar questions: what the index read of a Q&A. */
export function faqFingerprint(faq: IndexedFaq): number {
  let a = 0x811c9dc5;
  let b = 0x01000193;
  const feed = (text: string): void => {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x5bd1e995) + 0x6b43;
    }
    a = Math.imul(a ^ 0xffff, 0x01000193); // a separator no UTF-16 text unit of a question is
    b = Math.imul(b ^ 0xffff, 0x5bd1e995);
  };
  feed(faq.question);
  for (const text of faq.similarQuestions) feed(text);
  return (a >>> 0) * 0x200000 + ((b >>> 0) & 0x1fffff);
}

export function faqIndexSections(saved: SavedFaqIndex, into: Sections): void {
  const { state } = saved;
  into.set('faq.meta', Buffer.from(JSON.stringify({ tokens: state.tokens.length, faqs: state.faqIds.length })));
  into.set('faq.tokens', stringsBytes(state.tokens));
  into.set('faq.ids', stringsBytes(state.faqIds));
  into.set('faq.texts', bytes(state.texts));
  into.set('faq.lengths', bytes(state.lengths));
  into.set('faq.tokenIds', bytes(state.tokenIds));
  into.set('faq.fingerprints', bytes(saved.fingerprints));
}

/** Decodes and checks the sections (every count and token id in range); throws SnapshotFormatError. */
export function readFaqIndex(reader: SectionReader): SavedFaqIndex {
  const meta = reader.json<{ tokens: number; faqs: number }>('faq.meta');
  const tokens = reader.strings('faq.tokens', meta.tokens);
  const faqIds = reader.strings('faq.ids', meta.faqs);
  const texts = reader.int32('faq.texts');
  const lengths = reader.int32('faq.lengths');
  const tokenIds = reader.int32('faq.tokenIds');
  const fingerprints = reader.float64('faq.fingerprints');
  if (texts.length !== faqIds.length || fingerprints.length !== faqIds.length) throw new SnapshotFormatError('faq: counts differ');
  let textCount = 0;
  for (const n of texts) if (n < 1 || (textCount += n) > lengths.length) throw new SnapshotFormatError('faq: bad text count');
  let tokenCount = 0;
  for (const n of lengths) if (n < 1 || (tokenCount += n) > tokenIds.length) throw new SnapshotFormatError('faq: bad text length');
  if (textCount !== lengths.length || tokenCount !== tokenIds.length) throw new SnapshotFormatError('faq: counts differ');
  for (const tid of tokenIds) if (tid < 0 || tid >= tokens.length) throw new SnapshotFormatError('faq: token id out of range');
  return { state: { tokens, faqIds, texts, lengths, tokenIds }, fingerprints };
}
