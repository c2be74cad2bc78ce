// One column of the Retrieval page (A or B): its settings form, its controls and result areas, and what it
// last ran. The controller decides what runs when; this only builds the column.
import type { Column, RunResult } from '../../features/answers/retrieval/protocol';
import type { RetrievalStrings } from '../../features/answers/retrieval/retrievalStrings';
import type { H } from '../shared/dom';
import { format } from '../shared/strings';
import { ColumnForm } from './columnForm';

export interface ColumnState {
  /** The whole column, to place on the page. */
  element: HTMLElement;
  form: ColumnForm;
  preset: HTMLElement;
  status: HTMLElement;
  error: HTMLElement;
  results: HTMLElement;
  request: HTMLPreElement;
  run: HTMLButtonElement;
  result: RunResult | null;
  /** The question the result is for (marks compare results of the same question only). */
  ranFor: string | null;
  errorText: string | null;
  busy: boolean;
  seq: number;
  timer: ReturnType<typeof setTimeout> | undefined;
}

export interface ColumnActions {
  /** A setting changed: by a slider (runs again after a pause) or otherwise (at once). */
  changed(kind: 'slider' | 'other'): void;
  run(): void;
  reset(): void;
}

export function createColumn(h: H, c: Column, s: RetrievalStrings, actions: ColumnActions): ColumnState {
  const form = new ColumnForm(h, c, s, (kind) => actions.changed(kind));
  const preset = h('span', { class: 'kd-muted rt-preset' });
  const status = h('p', { class: 'kd-muted rt-status', attrs: { 'aria-live': 'polite' } });
  const error = h('div', { class: 'kd-banner kd-banner-error', attrs: { role: 'alert', hidden: true } });
  const results = h('div', { class: 'rt-results-host', attrs: { role: 'region', 'aria-label': format(s.results, c) } });
  const request = h('pre', { class: 'rt-request-body' });
  const smallButton = (label: string, click: () => void, ariaLabel?: string): HTMLButtonElement =>
    h('button', { class: 'kd-button kd-secondary kd-small', attrs: { type: 'button', 'aria-label': ariaLabel }, on: { click } }, label);
  const run = smallButton(format(s.run, c), () => actions.run());
  const element = h(
    'section',
    { class: `rt-column rt-column-${c}`, attrs: { 'aria-labelledby': `rt-${c}-title` } }, // l10n-ignore: a class name and an id
    h(
      'div',
      { class: 'rt-column-head' },
      h('h2', { attrs: { id: `rt-${c}-title`, 'aria-label': format(s.columnLabel, c) } }, c),
      preset,
      h('span', { class: 'rt-spacer' }),
      smallButton(s.reset, () => actions.reset(), format(s.resetLabel, c)),
      run,
    ),
    form.element,
    h('details', { class: 'rt-request' }, h('summary', null, s.requestBody), request),
    status,
    error,
    results,
  );
  return {
    element,
    form,
    preset,
    status,
    error,
    results,
    request,
    run,
    result: null,
    ranFor: null,
    errorText: null,
    busy: false,
    seq: 0,
    timer: undefined,
  };
}
