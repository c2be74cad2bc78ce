// returnPreview / returnPdfPreview (docs/api.md#answer-request): `body` and `css` show the first cited passage with the
// quoted sentence marked; `pdfPreview` is the local document route of a cited PDF at its page. That route
// needs the API-KEY header and draws no highlight (the boxes come from /webapi/v2/highlights/{clueId}).
import type { AnswerRequest } from './answerSchema';
import type { ChosenSentence } from './extractive';
import { escapeHtml } from '../../core/html';

const CSS = '.kd-preview{font:14px/1.5 system-ui,sans-serif;white-space:pre-wrap}.kd-preview mark{background:#fff2a8}';

export function previewFields(
  request: AnswerRequest,
  chosen: readonly ChosenSentence[],
  baseUrl: string,
  notes: string[],
): Record<string, unknown> | undefined {
  if (!request.returnPreview && !request.returnPdfPreview) return undefined;
  const first = chosen.find((c) => c.source.kind === 'document');
  const hit = first?.source.hit;
  const out: Record<string, unknown> = {};
  if (request.returnPreview) {
    out.body = hit && first ? `<div class="kd-preview">${marked(hit.passage.text, first.text)}</div>` : '';
    out.css = CSS;
  }
  if (request.returnPdfPreview) {
    const isPdf = !!hit?.passage.items || /\.pdf$/i.test(hit?.node.name ?? '');
    out.pdfPreview =
      hit && isPdf ? `${baseUrl}/_local/documents/${encodeURIComponent(hit.node.id)}/content#page=${hit.passage.pageNo}` : '';
    if (out.pdfPreview)
      notes.push(
        'pdfPreview is the local document route: it needs the API-KEY header and draws no highlight; GET /webapi/v2/highlights/{clueId} gives the boxes.',
      );
  }
  return out;
}

/** The passage as HTML text, with the sentence marked where its words appear in order. */
function marked(passage: string, sentence: string): string {
  const words = sentence
    .split(/\s+|\s*\|\s*/)
    .filter(Boolean)
    .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const m = words.length ? new RegExp(words.join('[\\s|]*'), 'u').exec(passage) : null;
  if (!m) return escapeHtml(passage);
  return escapeHtml(passage.slice(0, m.index)) + '<mark>' + escapeHtml(m[0]) + '</mark>' + escapeHtml(passage.slice(m.index + m[0].length));
}
