// One column's settings: weight sliders, page count, reranker, hashtags. No inline handlers or
// styles (the CSP refuses both); every control is labelled.
import { parseHashtags } from '../../core/hashtags';
import type { Column, RetrievalSettings } from '../../features/answers/retrieval/protocol';
import type { RetrievalStrings } from '../../features/answers/retrieval/retrievalStrings';
import type { H } from '../shared/dom';
import { format, formatNumber } from '../shared/strings';

type NumberKey = 'bm25_score_weight' | 'text_vector_score_weight' | 'title_vector_score_weight' | 'maxDocumentClues';

/** The sliders; labels and hints are keys of RetrievalStrings (the hint names the request field). */
const SLIDERS: Array<{
  key: NumberKey;
  label: keyof RetrievalStrings;
  hint: keyof RetrievalStrings;
  min: number;
  max: number;
  step: number;
}> = [
  { key: 'bm25_score_weight', label: 'keyword', hint: 'keywordHint', min: 0, max: 9, step: 0.5 },
  { key: 'text_vector_score_weight', label: 'contentVectors', hint: 'vectorHint', min: 0, max: 9, step: 0.5 },
  { key: 'title_vector_score_weight', label: 'titleVectors', hint: 'vectorHint', min: 0, max: 9, step: 0.5 },
  { key: 'maxDocumentClues', label: 'pagesReturned', hint: 'pagesHint', min: 1, max: 20, step: 1 },
];

export class ColumnForm {
  readonly element: HTMLElement;
  private readonly sliders = new Map<NumberKey, { input: HTMLInputElement; output: HTMLOutputElement }>();
  private readonly reranker: HTMLInputElement;
  private readonly rerankerHint: HTMLElement;
  private readonly candidates: HTMLInputElement;
  private readonly hashtags: HTMLInputElement;
  private rerankerValue: boolean | null = null;

  constructor(
    h: H,
    column: Column,
    private readonly s: RetrievalStrings,
    onChange: (kind: 'slider' | 'other') => void,
  ) {
    const id = (name: string): string => `rt-${column}-${name}`;
    const rows = SLIDERS.map((s) => {
      const input = h('input', {
        class: 'rt-slider',
        attrs: { type: 'range', id: id(s.key), min: s.min, max: s.max, step: s.step, 'aria-describedby': id(`${s.key}-hint`) },
      });
      const output = h('output', { class: 'rt-value', attrs: { for: id(s.key) } });
      input.addEventListener('input', () => {
        output.value = this.formatValue(Number(input.value));
        onChange('slider');
      });
      this.sliders.set(s.key, { input, output });
      return h(
        'div',
        { class: 'rt-row' },
        h('label', { class: 'rt-label', attrs: { for: id(s.key) } }, this.s[s.label]),
        input,
        output,
        h('span', { class: 'kd-visually-hidden', attrs: { id: id(`${s.key}-hint`) } }, format(this.s[s.hint], s.key)),
      );
    });
    this.reranker = h('input', { attrs: { type: 'checkbox', id: id('reranker') } });
    this.rerankerHint = h('span', { class: 'kd-muted rt-hint' });
    this.candidates = h('input', {
      class: 'kd-input rt-number',
      attrs: { type: 'number', id: id('candidates'), min: 1, max: 100, step: 1, 'aria-label': format(this.s.candidatesLabel, column) },
    });
    this.reranker.addEventListener('change', () => {
      this.rerankerValue = this.reranker.checked;
      this.syncReranker();
      onChange('other');
    });
    this.candidates.addEventListener('change', () => onChange('other'));
    this.hashtags = h('input', {
      class: 'kd-input',
      attrs: { type: 'text', id: id('hashtags'), placeholder: this.s.hashtagsPlaceholder, autocomplete: 'off', spellcheck: 'false' },
    });
    this.hashtags.addEventListener('change', () => onChange('other'));
    this.element = h(
      'div',
      { class: 'rt-settings' },
      ...rows,
      h(
        'div',
        { class: 'rt-row rt-row-reranker' },
        h('label', { class: 'rt-check', attrs: { for: id('reranker') } }, this.reranker, this.s.reranker),
        this.rerankerHint,
        h('label', { class: 'rt-label rt-candidates-label', attrs: { for: id('candidates') } }, this.s.candidates),
        this.candidates,
      ),
      h(
        'div',
        { class: 'rt-row rt-row-wide' },
        h('label', { class: 'rt-label', attrs: { for: id('hashtags') } }, this.s.hashtags),
        this.hashtags,
      ),
    );
  }

  get value(): RetrievalSettings {
    const num = (key: NumberKey): number => Number(this.sliders.get(key)!.input.value);
    const candidates = Math.round(Number(this.candidates.value));
    return {
      bm25_score_weight: num('bm25_score_weight'),
      text_vector_score_weight: num('text_vector_score_weight'),
      title_vector_score_weight: num('title_vector_score_weight'),
      maxDocumentClues: Math.round(num('maxDocumentClues')),
      use_reranker: this.rerankerValue,
      reranker_candidates_num: Number.isFinite(candidates) ? Math.min(100, Math.max(1, candidates)) : 16,
      // The request allows 50 hashtags (retrievalSettingsSchema).
      hashtags: parseHashtags(this.hashtags.value).slice(0, 50),
    };
  }

  set value(s: RetrievalSettings) {
    for (const [key, { input, output }] of this.sliders) {
      input.value = String(s[key]);
      output.value = this.formatValue(s[key]);
    }
    this.rerankerValue = s.use_reranker;
    this.candidates.value = String(s.reranker_candidates_num);
    this.hashtags.value = s.hashtags.map((t) => `#${t}`).join(', ');
    this.syncReranker();
  }

  setEnabled(enabled: boolean): void {
    for (const el of Array.from(this.element.querySelectorAll('input'))) (el as HTMLInputElement).disabled = !enabled;
    if (enabled) this.syncReranker();
  }

  /** Unset (null) shows as indeterminate: the project's setting applies. */
  private syncReranker(): void {
    this.reranker.indeterminate = this.rerankerValue === null;
    this.reranker.checked = this.rerankerValue === true;
    this.rerankerHint.textContent =
      this.rerankerValue === null ? this.s.rerankerProject : this.rerankerValue ? this.s.rerankerOn : this.s.rerankerOff;
    this.candidates.disabled = this.rerankerValue !== true;
  }

  private formatValue(n: number): string {
    const digits = Number.isInteger(n) ? 0 : 1;
    return formatNumber(n, { minimumFractionDigits: digits, maximumFractionDigits: digits }, this.reranker.ownerDocument);
  }
}
