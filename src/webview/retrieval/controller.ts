// The Retrieval page: a question, columns A and B with their settings, results side by side with
// the rank changes between them. Settings and question live in the webview state.
import {
  COLUMNS,
  DEFAULT_SETTINGS,
  retrievalStateSchema,
  type Column,
  type Mark,
  type RetrievalProtocol,
  type RetrievalSettings,
  type RetrievalSnapshot,
} from '../../features/answers/retrieval/protocol';
import { compareRankings, markLabel } from '../../features/answers/retrieval/rankChanges';
import type { RetrievalStrings } from '../../features/answers/retrieval/retrievalStrings';
import { createH, type H } from '../shared/dom';
import { format, formatNumber, pageStrings } from '../shared/strings';
import type { Messenger } from '../shared/messenger';
import { createColumn, type ColumnState } from './columnState';
import { renderResults } from './resultsList';
import { pageHeader } from '../shared/widgets';

const AUTO_RUN_MS = 400;

export class RetrievalController {
  private readonly h: H;
  private readonly s: RetrievalStrings;
  private readonly root: HTMLElement;
  private readonly question: HTMLInputElement;
  private readonly runBoth: HTMLButtonElement;
  private readonly region: HTMLElement;
  private readonly columns: Record<Column, ColumnState>;
  private defaults: Record<Column, RetrievalSettings> = DEFAULT_SETTINGS;

  constructor(
    doc: Document,
    private readonly messenger: Messenger<RetrievalProtocol>,
  ) {
    const h = (this.h = createH(doc));
    const s = (this.s = pageStrings<RetrievalStrings>(doc));
    this.question = h('input', {
      class: 'kd-input rt-question',
      attrs: { type: 'text', id: 'rt-question', placeholder: s.questionPlaceholder, autocomplete: 'off' },
    });
    this.question.addEventListener('keydown', (e) => {
      if (e.key !== 'Enter' || e.isComposing) return;
      e.preventDefault();
      void this.runColumns(COLUMNS);
    });
    this.question.addEventListener('change', () => this.save());
    this.runBoth = h(
      'button',
      { class: 'kd-button', attrs: { type: 'button', id: 'rt-run-both' }, on: { click: () => void this.runColumns(COLUMNS) } },
      s.runBoth,
    );
    this.region = h('span', { class: 'kd-badge', attrs: { id: 'rt-region' } });
    const column = (c: Column): ColumnState =>
      createColumn(h, c, s, { changed: (kind) => this.changed(c, kind), run: () => void this.runColumns([c]), reset: () => this.reset(c) });
    this.columns = { A: column('A'), B: column('B') };
    this.root = h(
      'div',
      { class: 'kd-page rt-root' },
      pageHeader(
        h,
        [h('h1', { class: 'kd-title' }, s.title), this.region],
        h('p', { class: 'kd-description' }, s.description),
        h(
          'div',
          { class: 'rt-ask' },
          h('label', { class: 'kd-label', attrs: { for: 'rt-question' } }, s.question),
          this.question,
          this.runBoth,
        ),
        h('p', { class: 'kd-muted rt-legend' }, s.legend),
      ),
      h('div', { class: 'rt-columns' }, ...COLUMNS.map((c) => this.columns[c].element)),
    );
  }

  start(app: HTMLElement): void {
    app.replaceChildren(this.root);
    app.removeAttribute('aria-busy');
    const m = this.messenger;
    m.on('init', ({ defaults, region, question }) => this.init(defaults, region, question));
    m.on('question', ({ question }) => {
      this.question.value = question;
      this.refreshPresets();
      this.save();
    });
    // Only the test build answers the tests' requests (src/testBuild.d.ts): esbuild drops this block elsewhere.
    if (globalThis.__KD_TEST__) {
      m.handle('snapshot', () => this.snapshot());
      m.handle('drive', async (d) => {
        if (d.question !== undefined) this.question.value = d.question;
        for (const c of COLUMNS) if (d[c]) this.columns[c].form.value = { ...this.columns[c].form.value, ...d[c] };
        this.refreshPresets();
        this.save();
        if (d.run) await this.runColumns(d.run === 'both' ? COLUMNS : [d.run]);
        // Not awaited: the viewer may take this page's place on screen (a hidden page gets no answers).
        if (d.open) void this.open(d.open.column, d.open.index);
        return this.snapshot();
      });
    }
    m.start();
  }

  snapshot(): RetrievalSnapshot {
    const marks = this.marks();
    const col = (c: Column): RetrievalSnapshot['A'] => {
      const s = this.columns[c];
      return {
        settings: s.form.value,
        busy: s.busy,
        error: s.errorText,
        results: (s.result?.items ?? []).map((item, i) => ({ ...item, mark: marks ? markLabel(marks[c][i]) : '' })),
        request: s.result?.request ?? null,
      };
    };
    return { question: this.question.value, A: col('A'), B: col('B') };
  }

  private init(defaults: Record<Column, RetrievalSettings>, region: string, question: string | null): void {
    this.defaults = defaults;
    this.region.textContent = region;
    const saved = this.messenger.getState(retrievalStateSchema);
    for (const c of COLUMNS) this.columns[c].form.value = saved?.settings[c] ?? defaults[c];
    this.question.value = question ?? saved?.question ?? this.question.value;
    this.refreshPresets();
    this.save();
    this.question.focus();
  }

  private reset(c: Column): void {
    this.columns[c].form.value = this.defaults[c];
    this.changed(c, 'slider');
  }

  private changed(c: Column, kind: 'slider' | 'other'): void {
    this.refreshPresets();
    this.save();
    const s = this.columns[c];
    // Tuning: a column that already shows results for this question follows its settings.
    if (s.result && s.ranFor === this.question.value.trim()) {
      clearTimeout(s.timer);
      s.timer = setTimeout(() => void this.runColumns([c]), kind === 'slider' ? AUTO_RUN_MS : 0);
    }
  }

  private async runColumns(which: readonly Column[]): Promise<void> {
    const question = this.question.value.trim();
    if (!question) {
      this.question.setAttribute('aria-invalid', 'true');
      this.question.focus();
      for (const c of which) this.showError(c, this.s.enterQuestion);
      return;
    }
    this.question.removeAttribute('aria-invalid');
    this.save();
    await Promise.all(which.map((c) => this.run(c, question)));
    this.report();
  }

  private async run(c: Column, question: string): Promise<void> {
    const s = this.columns[c];
    clearTimeout(s.timer);
    const seq = ++s.seq;
    const settings = s.form.value;
    if (settings.bm25_score_weight + settings.text_vector_score_weight + settings.title_vector_score_weight === 0) {
      s.result = null;
      s.ranFor = null;
      this.showError(c, this.s.allWeightsZero);
      this.renderAll();
      return;
    }
    this.setBusy(c, true);
    try {
      const result = await this.messenger.request('run', { column: c, question, settings });
      if (seq !== s.seq) return;
      s.result = result;
      s.ranFor = question;
      s.errorText = null;
      s.request.textContent = JSON.stringify(result.request, null, 2);
      const n = result.items.length;
      const ms = this.number(Math.round(result.elapsedMs));
      s.status.textContent = n === 1 ? format(this.s.oneResult, ms) : format(this.s.manyResults, this.number(n), ms);
    } catch (error) {
      if (seq !== s.seq) return;
      s.result = null;
      s.ranFor = null;
      this.showError(c, error instanceof Error ? error.message : String(error));
    } finally {
      if (seq === s.seq) this.setBusy(c, false);
    }
    this.renderAll();
  }

  private showError(c: Column, message: string): void {
    const s = this.columns[c];
    s.errorText = message;
    s.error.textContent = message;
    s.error.hidden = false;
    s.status.textContent = '';
  }

  private setBusy(c: Column, busy: boolean): void {
    const s = this.columns[c];
    s.busy = busy;
    s.run.disabled = busy;
    if (busy) {
      s.error.hidden = true;
      s.status.textContent = this.s.running;
    }
    this.runBoth.disabled = COLUMNS.every((k) => this.columns[k].busy);
  }

  /** Marks only when both columns answered the same question. */
  private marks(): { A: Mark[]; B: Mark[] } | null {
    const { A, B } = this.columns;
    if (!A.result || !B.result || A.ranFor !== B.ranFor) return null;
    return compareRankings(A.result.items, B.result.items);
  }

  private renderAll(): void {
    const marks = this.marks();
    for (const c of COLUMNS) {
      const s = this.columns[c];
      const items = s.result?.items ?? [];
      if (!s.result) s.results.replaceChildren();
      else if (!items.length) s.results.replaceChildren(this.h('p', { class: 'kd-empty' }, this.s.noPages));
      else s.results.replaceChildren(renderResults(this.h, this.s, items, marks?.[c] ?? [], (i) => void this.open(c, i)));
      if (s.result) s.error.hidden = true;
    }
  }

  private async open(c: Column, index: number): Promise<void> {
    const item = this.columns[c].result?.items[index];
    if (!item) return;
    await this.messenger.request('open', { item, question: this.columns[c].ranFor ?? this.question.value }).catch((error: unknown) => {
      this.showError(c, format(this.s.openFailed, error instanceof Error ? error.message : String(error)));
    });
  }

  private report(): void {
    if (COLUMNS.some((c) => this.columns[c].busy)) return;
    const marks = this.marks();
    const col = (c: Column) => ({
      count: this.columns[c].result?.items.length ?? 0,
      marks: (marks?.[c] ?? []).map(markLabel),
      error: this.columns[c].errorText,
    });
    this.messenger.notify('rendered', { question: this.question.value, A: col('A'), B: col('B') });
  }

  /** "Service weights 9/1/0", "Keyword only 9/0/0" or "Custom weights 9/0/9". */
  private refreshPresets(): void {
    const weights = (s: RetrievalSettings): string =>
      [s.bm25_score_weight, s.text_vector_score_weight, s.title_vector_score_weight].join('/');
    for (const c of COLUMNS) {
      const w = weights(this.columns[c].form.value);
      const name =
        w === weights(this.defaults.A) ? this.s.presetService : w === weights(this.defaults.B) ? this.s.presetKeyword : this.s.presetCustom;
      this.columns[c].preset.textContent = format(name, w);
    }
  }

  private number(n: number): string {
    return formatNumber(n, undefined, this.root.ownerDocument);
  }

  private save(): void {
    this.messenger.setState(retrievalStateSchema, {
      question: this.question.value.slice(0, 10_000),
      settings: { A: this.columns.A.form.value, B: this.columns.B.form.value },
    });
  }
}
