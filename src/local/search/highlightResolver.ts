// Resolves a clue id, or a retrieval result's (kbId, pageNo, subTextIndex, passageText), to highlight boxes.
// Always from the stored extraction of the document's current version, so it works right after a restart
// (no index needed) and never points into text the document no longer has.
import type { ExtractedPage } from '../extract/types';
import type { KbStore } from '../kb/kbStore';
import { decodeClueId } from './clueId';
import { highlightFor, type Highlight } from './highlights';
import { documentNoise } from './pageNoise';
import { pagePassages, type Passage } from './passages';
import type { Retrieval } from './retrieval';
import { tokenSet } from './tokenizer';

export interface RetrievalHighlightRequest {
  kbId: string;
  pageNo: number;
  subTextIndex?: number;
  passageText?: string;
}

export class HighlightResolver {
  constructor(
    private readonly kb: KbStore,
    private readonly retrieval: Retrieval,
  ) {}

  /**
   * Boxes of the passage a clue names, or of the sentences within it an answer's clue names; undefined for
   * unknown, malformed, Q&A or outdated clues.
   */
  async forClue(clueId: string): Promise<Highlight | undefined> {
    const clue = decodeClueId(clueId);
    if (clue?.kind !== 'passage') return undefined;
    const found = await this.page(clue.nodeId, clue.pageNo, clue.hash);
    const passage = found?.passages[clue.subTextIndex];
    if (!passage) return undefined;
    const range = clue.range && clue.range.end <= passage.end - passage.start ? clue.range : undefined;
    return range
      ? highlightFor(found.page, passage.start + range.start, passage.start + range.end)
      : highlightFor(found.page, passage.start, passage.end);
  }

  /**
   * The passage at subTextIndex, unless passageText says otherwise: then the exact place of that text on the
   * page (which may be a passage or any part of it, such as a quoted sentence), else the passage sharing most
   * of its words (at least half).
   */
  async forRetrieval(request: RetrievalHighlightRequest): Promise<Highlight | undefined> {
    const found = await this.page(request.kbId, request.pageNo);
    if (!found) return undefined;
    const { page, passages } = found;
    const wanted = request.passageText?.trim();
    const indexed = request.subTextIndex === undefined ? undefined : passages[request.subTextIndex];
    if (indexed && (!wanted || squash(indexed.text) === squash(wanted))) return highlightFor(page, indexed.start, indexed.end);
    if (!wanted) return undefined;
    const range = locate(page.text, wanted);
    if (range) return highlightFor(page, range.start, range.end);
    const words = tokenSet(wanted);
    let best: { start: number; end: number; share: number } | undefined;
    for (const p of passages) {
      const own = new Set(tokenSet(p.text));
      const share = words.length ? words.filter((w) => own.has(w)).length / words.length : 0;
      if (share >= 0.5 && share > (best?.share ?? 0)) best = { start: p.start, end: p.end, share };
    }
    return best && highlightFor(page, best.start, best.end);
  }

  /** The page and its passages, cut as the index cut them (the same noise ranges: pageNoise.ts). */
  private async page(nodeId: string, pageNo: number, hash?: string): Promise<{ page: ExtractedPage; passages: Passage[] } | undefined> {
    const node = this.kb.get(nodeId);
    if (!node || node.nodeType !== 'file' || node.processState !== 'completed' || !node.textBlob) return undefined;
    if (hash !== undefined && !node.textBlob.startsWith(hash)) return undefined;
    const extraction = await this.retrieval.extraction(node);
    const page = extraction?.pages.find((p) => p.pageNo === pageNo);
    return page && extraction && { page, passages: pagePassages(page, documentNoise(extraction).of(page)) };
  }
}

function squash(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Finds `needle` in `text` with any run of whitespace matching any other (PDF line breaks differ from copies). */
export function locate(text: string, needle: string): { start: number; end: number } | undefined {
  const parts = needle.split(/\s+/).filter(Boolean);
  if (!parts.length) return undefined;
  const escaped = parts.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const m = new RegExp(escaped.join('\\s*'), 'u').exec(text);
  return m ? { start: m.index, end: m.index + m[0].length } : undefined;
}
