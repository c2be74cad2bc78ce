// Pieces several pages build the same way: a titled card, and a banner the person can dismiss.
import type { SharedPageStrings } from '../../platform/webview/pageStrings';
import type { Child, H } from './dom';
import { pageStrings } from './strings';

/** A section with a heading that labels it (`id` is the heading's id). */
export function card(h: H, id: string, title: string, ...children: Child[]): HTMLElement {
  return h('section', { class: 'kd-card', attrs: { 'aria-labelledby': id } }, h('h2', { attrs: { id } }, title), ...children);
}

/** A hidden banner (`kd-banner` plus `className`) showing `text`, with a Dismiss button. */
export function dismissibleBanner(
  h: H,
  className: string,
  role: 'alert' | 'status',
  text: HTMLElement,
  onDismiss: () => void,
): HTMLDivElement {
  return h(
    'div',
    { class: `kd-banner ${className}`, attrs: { role, hidden: true } },
    text,
    h(
      'button',
      { class: 'kd-link-button', attrs: { type: 'button' }, on: { click: onDismiss } },
      pageStrings<SharedPageStrings>(text.ownerDocument).dismiss,
    ),
  );
}

/** The page's header: the title row (title, badges), then what follows it (descriptions, actions). */
export function pageHeader(h: H, titleRow: Child[], ...children: Child[]): HTMLElement {
  return h('header', { class: 'kd-header' }, h('div', { class: 'kd-title-row' }, ...titleRow), ...children);
}
