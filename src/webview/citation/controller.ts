// The citation page: shows what the host sends (a PDF page, a text document, the fallback, loading or
// an error), keeps the page and zoom in the webview state, and reports what it drew.
import {
  citationStateSchema,
  type CitationProtocol,
  type CitationSnapshot,
  type CitationTarget,
  type DocumentView,
  type RenderedReport,
  type Zoom,
} from '../../features/answers/citations/protocol';
import { createH, type H } from '../shared/dom';
import type { Messenger } from '../shared/messenger';
import { renderFallback } from './fallbackView';
import type { PdfEngine } from './pdfEngine';
import { PdfView } from './pdfView';
import { TextDocView } from './textView';

const KIND_LABEL: Record<string, string> = { pdf: 'PDF', text: 'Text', fallback: 'Passage only' };

export class CitationController {
  private readonly h: H;
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
    this.title = h('h1', { class: 'kd-title', attrs: { id: 'cd-title' } }, 'Citation');
    this.kind = h('span', { class: 'kd-badge', attrs: { id: 'cd-kind', hidden: true } });
    this.meta = h('p', { class: 'kd-meta', attrs: { id: 'cd-meta' } });
    this.notes = h('div', { class: 'cd-notes', attrs: { id: 'cd-notes', 'aria-live': 'polite' } });
    this.passageText = h('blockquote', { class: 'cd-passage-text' });
    this.passage = h(
      'details',
      { class: 'cd-passage', attrs: { id: 'cd-passage', hidden: true } },
      h('summary', null, 'Cited passage'),
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
    );
    this.pdf = new PdfView(h, win, engine, {
      rendered: (r) => this.report(r),
      moved: (pageNo, zoom) => this.save(pageNo, zoom),
      note: (n) => this.setViewNote(n),
    });
    this.text = new TextDocView(h);
  }

  start(app: HTMLElement): void {
    this.win.document.body.classList.add('cd-page');
    app.replaceChildren(this.root);
    app.removeAttribute('aria-busy');
    const m = this.messenger;
    m.on('show', ({ target, view }) => void this.show(target, view));
    m.handle('snapshot', () => this.snapshot());
    m.handleForTests('drive', async ({ pageNo, zoom }) => {
      if (pageNo !== undefined) await this.pdf.goTo(pageNo);
      if (zoom !== undefined) await this.pdf.setZoom(zoom);
      await this.pdf.whenIdle();
      return this.snapshot();
    });
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
    };
  }

  private async show(target: CitationTarget, view: DocumentView): Promise<void> {
    const saved = this.messenger.getState(citationStateSchema);
    const same = saved && JSON.stringify(saved.target) === JSON.stringify(target);
    this.target = target;
    this.view = view;
    this.rendered = null;
    this.viewNote = null;
    this.staticNotes = 'notes' in view ? view.notes : [];
    this.title.textContent = view.title;
    this.kind.hidden = !(view.kind in KIND_LABEL);
    this.kind.textContent = KIND_LABEL[view.kind] ?? '';
    this.toolbarHost.replaceChildren();
    this.root.setAttribute('aria-busy', String(view.kind === 'loading'));
    this.showPassage(view);
    this.renderNotes();
    switch (view.kind) {
      case 'loading':
        this.meta.textContent = 'Loading the document…';
        this.body.replaceChildren(this.h('div', { class: 'kd-progress', attrs: { role: 'progressbar', 'aria-label': 'Loading' } }));
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
              'Retry',
            ),
          ),
        );
        return this.report({ ...emptyReport('error'), textSample: view.message.slice(0, 300) });
      case 'fallback': {
        this.meta.textContent = view.pageNo !== null ? `Page ${view.pageNo}` : 'Page not given';
        const { element, report } = renderFallback(this.h, view);
        this.body.replaceChildren(element);
        this.save(view.pageNo ?? 1, 'fit');
        return this.report(report);
      }
      case 'text': {
        const { report, note } = this.text.show(view);
        this.body.replaceChildren(this.text.element);
        this.setViewNote(note);
        this.meta.textContent = [
          view.pageNo ? `Cited page ${view.pageNo} of ${view.pages.length}` : `${view.pages.length} page(s)`,
          view.format,
        ].join(' · ');
        this.save(view.pageNo ?? 1, 'fit');
        this.text.reveal(report.pageNo);
        return this.report(report);
      }
      case 'pdf':
        this.toolbarHost.replaceChildren(this.pdf.toolbar);
        this.body.replaceChildren(this.pdf.element);
        this.meta.textContent = view.origin === 'preview' ? 'PDF preview from the service' : 'PDF from the knowledge base';
        try {
          await this.pdf.show(view, same ? saved.pageNo : undefined, same ? saved.zoom : undefined);
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          this.body.replaceChildren(
            this.h('div', { class: 'kd-banner kd-banner-error', attrs: { role: 'alert' } }, `The PDF could not be shown: ${message}`),
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
    if (this.view?.kind === 'pdf' && note && /could not be found/.test(note)) this.passage.open = true;
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
    if (r.view === 'pdf') {
      const how =
        r.highlightSource === 'service'
          ? 'highlighted by the service'
          : r.highlightSource === 'text'
            ? 'passage found by its text'
            : 'no highlight on this page';
      const origin = this.view?.kind === 'pdf' && this.view.origin === 'preview' ? 'PDF preview' : 'PDF';
      this.meta.textContent = `${origin} · page ${r.pageNo} of ${r.pageCount} · ${how}`;
    }
    this.messenger.notify('rendered', r);
  }

  private save(pageNo: number, zoom: Zoom): void {
    if (this.target) this.messenger.setState(citationStateSchema, { target: this.target, pageNo, zoom });
  }
}

function emptyReport(view: RenderedReport['view']): RenderedReport {
  return {
    view,
    pageNo: null,
    pageCount: null,
    canvas: null,
    scale: null,
    rects: [],
    highlightSource: 'none',
    highlightedText: '',
    textSample: '',
    fontProblems: [],
  };
}
