// One PDF page at a time: toolbar (previous/next, page number, zoom), the canvas, pdfjs' text layer
// and the highlight layer on top. Talks to pdfjs only through PdfEngine (a fake one in tests).
import type { CitationStrings } from '../../features/answers/citations/citationStrings';
import type { PdfView as PdfViewData, RenderedReport, Zoom } from '../../features/answers/citations/protocol';
import type { H } from '../shared/dom';
import { format, formatNumber } from '../shared/strings';
import { boxesForPassage, boxesToRects, normalizeBoxes, type Box } from './highlightGeometry';
import type { PdfDocument, PdfEngine, PdfPage } from './pdfEngine';
import { isFontProblem, sampleText } from './pdfText';
import { PdfToolbar, ZOOM_STEPS } from './pdfToolbar';

const FALLBACK_WIDTH = 800;

export interface PdfViewEvents {
  rendered(report: RenderedReport): void;
  /** The page or zoom changed (saved in the page state). */
  moved(pageNo: number, zoom: Zoom): void;
  note(message: string | null): void;
}

export class PdfView {
  readonly element: HTMLElement;
  readonly toolbar: HTMLElement;
  private readonly scroller: HTMLElement;
  private readonly pageBox: HTMLElement;
  private readonly canvas: HTMLCanvasElement;
  private readonly textLayer: HTMLElement;
  private readonly highlights: HTMLElement;
  private readonly bar: PdfToolbar;
  private doc: PdfDocument | undefined;
  private data: PdfViewData | undefined;
  private page = 1;
  private zoomLevel: Zoom = 'fit';
  private token = 0;
  private cancelRender: (() => void) | undefined;
  private lastWidth = 0;
  private resizeTimer: ReturnType<typeof setTimeout> | undefined;
  private idle: Promise<void> = Promise.resolve();
  /** The page whose drawing on the canvas finished; null while the canvas is being drawn. */
  private drawnPage: number | null = null;

  constructor(
    private readonly h: H,
    private readonly win: Window,
    private readonly engine: PdfEngine,
    private readonly s: CitationStrings,
    private readonly events: PdfViewEvents,
  ) {
    this.bar = new PdfToolbar(h, s, win.document, {
      goTo: (pageNo) => void this.goTo(pageNo),
      turn: (by) => void this.goTo(this.page + by),
      zoom: (zoom) => void this.setZoom(zoom),
      backToCited: () => void this.goTo(this.citedPage),
    });
    this.toolbar = this.bar.element;
    this.canvas = h('canvas', { class: 'cd-canvas', attrs: { 'aria-hidden': 'true' } });
    this.highlights = h('div', { class: 'cd-highlights', attrs: { 'aria-hidden': 'true' } });
    this.textLayer = h('div', { class: 'textLayer' });
    this.pageBox = h(
      'div',
      { class: 'cd-pagebox', attrs: { role: 'img', 'aria-label': s.pdfPage } },
      this.canvas,
      this.highlights,
      this.textLayer,
    );
    this.scroller = h('div', { class: 'cd-scroller' }, this.pageBox);
    this.element = h('div', { class: 'cd-pdf' }, this.scroller);
    win.document.addEventListener('keydown', (e) => this.onKey(e));
    const RO = (win as Window & typeof globalThis).ResizeObserver;
    if (typeof RO === 'function') new RO(() => this.onResize()).observe(this.scroller);
  }

  get pageNo(): number {
    return this.page;
  }

  get pageCount(): number | null {
    return this.doc?.numPages ?? null;
  }

  get zoom(): Zoom {
    return this.zoomLevel;
  }

  /** What is on screen (snapshots): the page on the canvas (null while one is being drawn), and the toolbar. */
  get shown(): { canvasPageNo: number | null; toolbar: { page: number; backToCited: boolean } } {
    return { canvasPageNo: this.drawnPage, toolbar: this.bar.shown };
  }

  /** Resolves when the page being drawn is done (tests and `drive`). */
  whenIdle(): Promise<void> {
    return this.idle;
  }

  /** Opens the document of `data` at `pageNo` (the cited page unless the page state says otherwise). */
  async show(data: PdfViewData, pageNo: number | undefined, zoom: Zoom | undefined): Promise<void> {
    this.clear();
    this.data = data;
    this.zoomLevel = zoom ?? 'fit';
    const token = this.token;
    const doc = await this.engine.open(data.data);
    if (token !== this.token) return doc.destroy();
    this.doc = doc;
    this.bar.setPageCount(doc.numPages);
    const cited = this.citedPage;
    if (cited > doc.numPages)
      this.events.note(
        format(
          this.s.citedPageMissing,
          formatNumber(cited, undefined, this.win.document),
          formatNumber(doc.numPages, undefined, this.win.document),
        ),
      );
    await this.goTo(pageNo ?? cited);
  }

  /**
   * Forgets the document: a drawing still on its way is cancelled and reports nothing, and a redraw planned
   * after a resize does not happen (another view replaces this one, or another document comes).
   */
  clear(): void {
    this.token++;
    this.cancelRender?.();
    this.cancelRender = undefined;
    clearTimeout(this.resizeTimer);
    this.doc?.destroy();
    this.doc = undefined;
    this.data = undefined;
    this.drawnPage = null;
  }

  /** The page the citation points at, if the document has it. */
  private get citedPage(): number {
    const n = this.data?.pageNo ?? 1;
    return this.doc && n > this.doc.numPages ? 1 : n;
  }

  async goTo(pageNo: number): Promise<void> {
    if (!this.doc || !Number.isFinite(pageNo)) return;
    this.page = Math.min(this.doc.numPages, Math.max(1, Math.round(pageNo)));
    await this.render();
  }

  async setZoom(zoom: Zoom | 'in' | 'out'): Promise<void> {
    if (zoom === 'in' || zoom === 'out') return this.step(zoom === 'in' ? 1 : -1);
    this.zoomLevel = zoom;
    await this.render();
  }

  private async step(direction: 1 | -1): Promise<void> {
    const current = this.currentScale();
    const next = direction > 0 ? ZOOM_STEPS.find((z) => z > current + 0.01) : [...ZOOM_STEPS].reverse().find((z) => z < current - 0.01);
    if (next !== undefined) await this.setZoom(next);
  }

  private currentScale(): number {
    return this.zoomLevel === 'fit' ? Number(this.pageBox.dataset.scale ?? 1) : this.zoomLevel;
  }

  private render(): Promise<void> {
    this.idle = this.draw();
    return this.idle;
  }

  private async draw(): Promise<void> {
    const doc = this.doc;
    const data = this.data;
    if (!doc || !data) return;
    const token = ++this.token;
    this.cancelRender?.();
    this.syncToolbar();
    const page = await doc.getPage(this.page);
    if (token !== this.token) return;
    const scale = this.scaleFor(page);
    const width = Math.floor(page.size.width * scale);
    const height = Math.floor(page.size.height * scale);
    const css = this.pageBox.style;
    css.width = `${width}px`;
    css.height = `${height}px`;
    css.setProperty('--total-scale-factor', String(scale));
    this.pageBox.dataset.scale = String(scale);
    this.pageBox.setAttribute(
      'aria-label',
      format(
        this.s.pageOf,
        formatNumber(this.page, undefined, this.win.document),
        formatNumber(doc.numPages, undefined, this.win.document),
      ),
    );
    this.canvas.style.width = `${width}px`;
    this.canvas.style.height = `${height}px`;
    this.highlights.replaceChildren();
    this.engine.takeWarnings();
    this.drawnPage = null;
    const task = page.render(this.canvas, scale, this.win.devicePixelRatio || 1);
    this.cancelRender = task.cancel;
    try {
      await task.promise;
    } catch (error) {
      if (token !== this.token || (error as { name?: string })?.name === 'RenderingCancelledException') return;
      throw error;
    }
    if (token === this.token) this.drawnPage = page.pageNo;
    const runs = await page.textRuns();
    await page.renderTextLayer(this.textLayer, scale).catch(() => undefined);
    if (token !== this.token) return;
    const { boxes, source, text } = this.highlightFor(page, runs);
    const rects = boxesToRects(boxes, { width, height });
    for (const r of rects) {
      const el = this.h('div', { class: 'cd-highlight' });
      const px = (n: number): string => `${n}px`;
      Object.assign(el.style, { left: px(r.left), top: px(r.top), width: px(r.width), height: px(r.height) });
      this.highlights.append(el);
    }
    this.reveal(rects[0]?.top);
    const fontProblems = this.engine.takeWarnings().filter(isFontProblem);
    this.events.moved(this.page, this.zoomLevel);
    this.events.rendered({
      view: 'pdf',
      pageNo: this.page,
      pageCount: doc.numPages,
      canvas: { width, height },
      scale,
      rects,
      highlightSource: source,
      highlightedText: text.slice(0, 100_000),
      textSample: sampleText(runs.map((r) => r.str)),
      fontProblems: fontProblems.slice(0, 50),
    });
  }

  /** The service's boxes on their page; on the cited page without boxes, the passage found by its text. */
  private highlightFor(
    page: PdfPage,
    runs: Awaited<ReturnType<PdfPage['textRuns']>>,
  ): { boxes: Box[]; source: RenderedReport['highlightSource']; text: string } {
    const data = this.data!;
    const boxPage = data.highlightPageNo ?? this.citedPage;
    if (data.bboxes.length && page.pageNo === boxPage) {
      const { boxes } = normalizeBoxes(data.bboxes, page.size);
      if (boxes.length) {
        this.events.note(null);
        return { boxes, source: 'service', text: '' };
      }
    }
    if (page.pageNo !== this.citedPage || !data.passageText.trim()) {
      this.events.note(null);
      return { boxes: [], source: 'none', text: '' };
    }
    const found = boxesForPassage(runs, data.passageText);
    if (found?.boxes.length) {
      this.events.note(data.bboxes.length ? null : this.s.foundOnPage);
      return { boxes: found.boxes, source: 'text', text: found.text };
    }
    this.events.note(this.s.notFoundOnPage);
    return { boxes: [], source: 'none', text: '' };
  }

  /** The page's accessible name once it is drawn: its number and the highlighted passage. */
  describePage(description: string): void {
    this.pageBox.setAttribute('aria-label', description);
  }

  private scaleFor(page: PdfPage): number {
    if (this.zoomLevel !== 'fit') return this.zoomLevel;
    const available = (this.scroller.clientWidth || FALLBACK_WIDTH) - 32;
    this.lastWidth = this.scroller.clientWidth;
    return Math.min(4, Math.max(0.25, Math.round((available / page.size.width) * 1000) / 1000));
  }

  private syncToolbar(): void {
    this.bar.sync({ page: this.page, count: this.doc?.numPages ?? 1, zoom: this.zoomLevel, citedPage: this.citedPage });
  }

  /** Scrolls so the first highlight is in view, a third of the way down (its context above stays visible). */
  private reveal(top: number | undefined): void {
    if (top === undefined) return;
    const target = this.pageBox.offsetTop + top - this.scroller.clientHeight / 3;
    this.scroller.scrollTop = Math.max(0, target);
  }

  private onKey(e: KeyboardEvent): void {
    const t = e.target as HTMLElement | null;
    if (!this.doc || e.altKey || e.ctrlKey || e.metaKey || (t && /^(INPUT|SELECT|TEXTAREA)$/.test(t.tagName))) return;
    if (e.key === 'PageDown' || e.key === 'ArrowRight') void this.goTo(this.page + 1);
    else if (e.key === 'PageUp' || e.key === 'ArrowLeft') void this.goTo(this.page - 1);
    else return;
    e.preventDefault();
  }

  private onResize(): void {
    // Detached (another view is shown) its width is 0: nothing to fit.
    if (!this.doc || !this.scroller.isConnected || this.zoomLevel !== 'fit' || Math.abs(this.scroller.clientWidth - this.lastWidth) < 8)
      return;
    clearTimeout(this.resizeTimer);
    this.resizeTimer = setTimeout(() => void this.render(), 150);
  }
}
