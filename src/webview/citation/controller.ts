// The citation page: shows what the host sends (a PDF page, a text document, the fallback, loading or
// an error), keeps the page and zoom in the webview state, and reports what it drew.
import {
  citationStateSchema,
  type CitationProtocol,
  type CitationState,
  type CitationTarget,
  type DocumentView,
  type RenderedReport,
  type Zoom,
  type CitationSnapshot,
} from '../../features/answers/citations/protocol';
import type { CitationStrings } from '../../features/answers/citations/citationStrings';
import { createH, type H } from '../shared/dom';
import type { Messenger } from '../shared/messenger';
import { format, formatNumber, pageStrings } from '../shared/strings';
import { emptyReport, renderFallback } from './fallbackView';
import type { PdfEngine } from './pdfEngine';
import { PdfView } from './pdfView';
import { TextDocView } from './textView';

export class CitationController {
  private readonly h: H;
  private readonly s: CitationStrings;
  /** Visually hidden polite live region: the page shown and its highlight, for a screen reader. */
  private readonly status: HTMLElement;
  private readonly root: HTMLElement;
  private readonly title: HTMLElement;
  private readonly kind: HTMLElement;
  private readonly meta: HTMLElement;
  private readonly notes: HTMLElement;
  private readonly passage: HTMLDetailsElement;
  private readonly passageText: HTMLElement;
  private readonly toolbarHost: HTMLElement;
  private readonly body: HTMLElement;
  private readonly pdf: PdfView;
  private readonly text: TextDocView;
  private target: CitationTarget | null = null;
  /** The viewer's connection (the host says it in show); kept in the state so a restart reopens it there. */
  private connection: CitationState['connection'];
  private view: DocumentView | null = null;
  private staticNotes: string[] = [];
  private viewNote: string | null = null;
  private rendered: RenderedReport | null = null;

  constructor(
    private readonly win: Window,
    private readonly messenger: Messenger<CitationProtocol>,
    engine: PdfEngine,
  ) {
    const h = (this.h = createH(win.document));
    const s = (this.s = pageStrings<CitationStrings>(win.document));
    this.title = h('h1', { class: 'kd-title', attrs: { id: 'cd-title' } }, s.citation);
    this.status = h('div', {
      class: 'kd-visually-hidden',
      attrs: { id: 'cd-status', role: 'status', 'aria-live': 'polite', 'aria-atomic': 'true' },
    });
    this.kind = h('span', { class: 'kd-badge', attrs: { id: 'cd-kind', hidden: true } });
    this.meta = h('p', { class: 'kd-meta', attrs: { id: 'cd-meta' } });
    this.notes = h('div', { class: 'cd-notes', attrs: { id: 'cd-notes', 'aria-live': 'polite' } });
    this.passageText = h('blockquote', { class: 'cd-passage-text' });
    this.passage = h(
      'details',
      { class: 'cd-passage', attrs: { id: 'cd-passage', hidden: true } },
      h('summary', null, s.citedPassage),
      this.passageText,
    );
    this.toolbarHost = h('div', { class: 'cd-toolbar-host' });
    this.body = h('div', { class: 'cd-body', attrs: { id: 'cd-body' } });
    this.root = h(
      'div',
      { class: 'cd-root' },
      h('header', { class: 'cd-header' }, h('div', { class: 'kd-title-row' }, this.title, this.kind), this.meta, this.notes, this.passage),
      this.toolbarHost,
      this.body,
      this.status,
    );
    this.pdf = new PdfView(h, win, engine, s, {
      rendered: (r) => this.report(r),
      moved: (pageNo, zoom) => this.save(pageNo, zoom),
      note: (n) => this.setViewNote(n),
    });
    this.text = new TextDocView(h, s);
  }

  start(app: HTMLElement): void {
    this.win.document.body.classList.add('cd-page');
    app.replaceChildren(this.root);
    app.removeAttribute('aria-busy');
    const m = this.messenger;
    m.on('show', ({ target, view, reset, connection }) => {
      this.connection = connection;
      void this.show(target, view, !!reset);
    });
    // Only the test build answers the tests' requests (src/testBuild.d.ts): esbuild drops this block elsewhere.
    if (globalThis.__KD_TEST__) {
      m.handle('snapshot', () => this.snapshot());
      m.handle('drive', async ({ pageNo, zoom }) => {
        if (pageNo !== undefined) await this.pdf.goTo(pageNo);
        if (zoom !== undefined) await this.pdf.setZoom(zoom);
        await this.pdf.whenIdle();
        return this.snapshot();
      });
    }
    m.start();
  }

  snapshot(): CitationSnapshot {
    const kind = this.view?.kind ?? 'none';
    const isPdf = kind === 'pdf';
    return {
      view: kind,
      pageNo: isPdf ? this.pdf.pageNo : (this.rendered?.pageNo ?? null),
      pageCount: isPdf ? this.pdf.pageCount : (this.rendered?.pageCount ?? null),
      zoom: this.pdf.zoom,
      notes: [...this.staticNotes, ...(this.viewNote ? [this.viewNote] : [])],
      rendered: this.rendered,
      status: this.status.textContent ?? '',
      header: this.meta.textContent ?? '',
      ...(isPdf ? this.pdf.shown : { canvasPageNo: null, toolbar: null }),
    };
  }

  /** `reset`: a citation was clicked, so its cited page; otherwise (the page loaded again) the place saved for it. */
  private async show(target: CitationTarget, view: DocumentView, reset: boolean): Promise<void> {
    const saved = this.messenger.getState(citationStateSchema);
    const same = !reset && saved && JSON.stringify(saved.target) === JSON.stringify(target);
    // Whatever the previous document still had on its way (a drawing, a redraw after a resize) must not land
    // now: it would save its page under this target and draw it over this view.
    if (view.kind !== 'pdf') this.pdf.clear();
    this.target = target;
    this.view = view;
    this.rendered = null;
    this.viewNote = null;
    this.staticNotes = 'notes' in view ? view.notes : [];
    this.title.textContent = view.title;
    const s = this.s;
    const kind = ({ pdf: s.kindPdf, text: s.kindText, fallback: s.kindFallback } as Partial<Record<DocumentView['kind'], string>>)[
      view.kind
    ];
    this.kind.hidden = !kind;
    this.kind.textContent = kind ?? '';
    this.status.textContent = '';
    this.toolbarHost.replaceChildren();
    this.root.setAttribute('aria-busy', String(view.kind === 'loading'));
    this.showPassage(view);
    this.renderNotes();
    switch (view.kind) {
      case 'loading':
        this.meta.textContent = s.loadingDocument;
        this.body.replaceChildren(this.h('div', { class: 'kd-progress', attrs: { role: 'progressbar', 'aria-label': s.loading } }));
        return;
      case 'error':
        this.meta.textContent = '';
        this.body.replaceChildren(
          this.h(
            'div',
            { class: 'kd-banner kd-banner-error', attrs: { role: 'alert' } },
            this.h('span', null, view.message),
            this.h(
              'button',
              {
                class: 'kd-button kd-small',
                attrs: { type: 'button' },
                on: { click: () => void this.messenger.request('reload', {}).catch(() => undefined) },
              },
              s.retry,
            ),
          ),
        );
        return this.report({ ...emptyReport('error'), textSample: view.message.slice(0, 300) });
      case 'fallback': {
        this.meta.textContent = view.pageNo !== null ? format(s.page, this.num(view.pageNo)) : s.pageNotGiven;
        const { element, report } = renderFallback(this.h, s, view, this.win.document);
        this.body.replaceChildren(element);
        this.save(view.pageNo ?? 1, 'fit');
        return this.report(report);
      }
      case 'text': {
        const { report, note } = this.text.show(view);
        this.body.replaceChildren(this.text.element);
        this.setViewNote(note);
        const count = this.num(view.pages.length);
        this.meta.textContent = [
          view.pageNo ? format(s.citedPageOf, this.num(view.pageNo), count) : view.pages.length === 1 ? s.onePage : format(s.pages, count),
          view.format,
        ].join(' · ');
        this.save(view.pageNo ?? 1, 'fit');
        this.text.reveal(report.pageNo);
        return this.report(report);
      }
      case 'pdf':
        this.toolbarHost.replaceChildren(this.pdf.toolbar);
        this.body.replaceChildren(this.pdf.element);
        this.meta.textContent = view.origin === 'preview' ? s.pdfPreviewFromService : s.pdfFromKnowledgeBase;
        try {
          await this.pdf.show(view, same ? saved.pageNo : undefined, same ? saved.zoom : undefined);
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          this.body.replaceChildren(
            this.h('div', { class: 'kd-banner kd-banner-error', attrs: { role: 'alert' } }, format(s.pdfNotShown, message)),
          );
          this.report({ ...emptyReport('error'), textSample: message.slice(0, 300) });
        }
        return;
    }
  }

  /** The passage above the page: open when nothing on the page marks it. */
  private showPassage(view: DocumentView): void {
    const text = view.kind === 'pdf' || view.kind === 'text' ? view.passageText : '';
    this.passage.hidden = !text.trim() || view.kind === 'text';
    this.passageText.textContent = text;
    this.passage.open = false;
  }

  private setViewNote(note: string | null): void {
    this.viewNote = note;
    if (this.view?.kind === 'pdf' && note === this.s.notFoundOnPage) this.passage.open = true;
    this.renderNotes();
  }

  private renderNotes(): void {
    const all = [...this.staticNotes, ...(this.viewNote ? [this.viewNote] : [])];
    this.notes.replaceChildren(
      ...all.map((n) => this.h('div', { class: 'kd-banner kd-banner-info', attrs: { role: 'note' } }, this.h('span', null, n))),
    );
  }

  private report(r: RenderedReport): void {
    this.rendered = r;
    const s = this.s;
    if (r.view === 'pdf') {
      const how = r.highlightSource === 'service' ? s.highlightedByService : r.highlightSource === 'text' ? s.foundByText : s.noHighlight;
      const origin = this.view?.kind === 'pdf' && this.view.origin === 'preview' ? s.pdfPreview : s.pdf;
      this.meta.textContent = format(s.pdfMeta, origin, this.num(r.pageNo ?? 0), this.num(r.pageCount ?? 0), how);
    }
    const description = this.describe(r);
    if (description !== null) {
      this.status.textContent = description;
      if (r.view === 'pdf') this.pdf.describePage(description);
    }
    this.messenger.notify('rendered', r);
  }

  /** "Page 3 of 12, passage highlighted: …" for a screen reader; null when no page of a document is shown. */
  private describe(r: RenderedReport): string | null {
    if ((r.view !== 'pdf' && r.view !== 'text') || r.pageNo === null || r.pageCount === null) return null;
    const s = this.s;
    const page = this.num(r.pageNo);
    const count = this.num(r.pageCount);
    if (r.highlightSource === 'none') return format(s.pageStatusNoHighlight, page, count);
    const view = this.view;
    const passage = (r.highlightedText || (view && 'passageText' in view ? view.passageText : '')).replace(/\s+/g, ' ').trim();
    return format(s.pageStatusHighlighted, page, count, passage.length > 300 ? `${passage.slice(0, 299)}…` : passage);
  }

  /** A number in the display language (<html lang>). */
  private num(n: number): string {
    return formatNumber(n, undefined, this.win.document);
  }

  private save(pageNo: number, zoom: Zoom): void {
    const connection = this.connection ? { connection: this.connection } : {};
    if (this.target) this.messenger.setState(citationStateSchema, { target: this.target, pageNo, zoom, ...connection });
  }
}
