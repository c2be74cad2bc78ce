// The PDF viewer's toolbar: previous/next, the page number, zoom, and "Back to cited page". It shows what
// the view says and passes clicks on; the view decides what they do.
import type { CitationStrings } from '../../features/answers/citations/citationStrings';
import type { Zoom } from '../../features/answers/citations/protocol';
import type { H } from '../shared/dom';
import { format, formatNumber } from '../shared/strings';

export const ZOOM_STEPS = [0.5, 0.75, 1, 1.25, 1.5, 2, 3] as const;

export interface PdfToolbarActions {
  goTo(pageNo: number): void;
  /** One page back (-1) or forward (1). */
  turn(by: 1 | -1): void;
  zoom(zoom: Zoom | 'in' | 'out'): void;
  backToCited(): void;
}

export class PdfToolbar {
  readonly element: HTMLElement;
  private readonly pageInput: HTMLInputElement;
  private readonly pageCountLabel: HTMLElement;
  private readonly prev: HTMLButtonElement;
  private readonly next: HTMLButtonElement;
  private readonly zoomSelect: HTMLSelectElement;
  private readonly citedButton: HTMLButtonElement;

  constructor(
    h: H,
    private readonly s: CitationStrings,
    private readonly doc: Document,
    actions: PdfToolbarActions,
  ) {
    const button = (label: string, text: string, onClick: () => void): HTMLButtonElement =>
      h(
        'button',
        { class: 'kd-button kd-secondary kd-small', attrs: { type: 'button', 'aria-label': label, title: label }, on: { click: onClick } },
        text,
      );
    this.prev = button(s.previousPage, s.previous, () => actions.turn(-1));
    this.next = button(s.nextPage, s.next, () => actions.turn(1));
    this.pageInput = h('input', {
      class: 'kd-input cd-page-input',
      attrs: { type: 'number', min: 1, value: 1, 'aria-label': s.pageNumber, inputmode: 'numeric' },
    });
    this.pageInput.addEventListener('change', () => actions.goTo(Number(this.pageInput.value)));
    this.pageCountLabel = h('span', { class: 'kd-muted cd-page-count' }, format(s.ofPages, '–'));
    this.zoomSelect = h(
      'select',
      { class: 'kd-input kd-select cd-zoom', attrs: { 'aria-label': s.zoom } },
      h('option', { attrs: { value: 'fit' } }, s.fitWidth),
      ...ZOOM_STEPS.map((z) => h('option', { attrs: { value: String(z) } }, formatNumber(z, { style: 'percent' }, doc))),
    );
    this.zoomSelect.addEventListener('change', () => actions.zoom(this.zoomSelect.value === 'fit' ? 'fit' : Number(this.zoomSelect.value)));
    this.citedButton = h(
      'button',
      { class: 'kd-button kd-small', attrs: { type: 'button', hidden: true }, on: { click: () => actions.backToCited() } },
      s.backToCited,
    );
    this.element = h(
      'div',
      { class: 'cd-toolbar', attrs: { role: 'toolbar', 'aria-label': s.toolbar } },
      h('div', { class: 'cd-group' }, this.prev, this.pageInput, this.pageCountLabel, this.next),
      h(
        'div',
        { class: 'cd-group' },
        button(s.zoomOut, '−', () => actions.zoom('out')),
        this.zoomSelect,
        button(s.zoomIn, '+', () => actions.zoom('in')),
      ),
      this.citedButton,
    );
  }

  /** What the toolbar shows now (snapshots): the page number in its box, and whether "Back to cited page" is offered. */
  get shown(): { page: number; backToCited: boolean } {
    return { page: Number(this.pageInput.value), backToCited: !this.citedButton.hidden };
  }

  setPageCount(count: number): void {
    this.pageInput.max = String(count);
    this.pageCountLabel.textContent = format(this.s.ofPages, formatNumber(count, undefined, this.doc));
  }

  sync(state: { page: number; count: number; zoom: Zoom; citedPage: number }): void {
    this.pageInput.value = String(state.page);
    this.prev.disabled = state.page <= 1;
    this.next.disabled = state.page >= state.count;
    this.zoomSelect.value = state.zoom === 'fit' ? 'fit' : String(state.zoom);
    if (state.zoom !== 'fit' && this.zoomSelect.value !== String(state.zoom)) this.zoomSelect.value = 'fit';
    this.citedButton.hidden = state.page === state.citedPage;
  }
}
