// A few 16×16 line icons drawn with SVG attributes (no inline styles, no icon font to load).
const PATHS = {
  add: 'M8 3v10M3 8h10',
  close: 'M4.5 4.5l7 7M11.5 4.5l-7 7',
  trash: 'M2.5 4h11M6 4V2.5h4V4M4 4l.7 9.5h6.6L12 4M6.5 6.5v5M9.5 6.5v5',
  copy: 'M5.5 5.5h8v8h-8zM3 10.5H2.5v-8h8V3',
  refresh: 'M13 8a5 5 0 1 1-1.6-3.7M13.2 2.5v2.8h-2.8',
  save: 'M2.5 2.5h8.5l2.5 2.5v8.5h-11zM5 2.5v3h5.5v-3M4.5 13.5v-4.5h7v4.5',
  power: 'M8 1.8v6M4.6 4a5 5 0 1 0 6.8 0',
  thumbsUp: 'M4.5 7v6.5h-2V7zM4.5 7l2.6-5c1 0 1.7.9 1.5 1.9L8.2 6h4c.9 0 1.5.8 1.3 1.7l-1.1 4.7c-.2.7-.8 1.1-1.5 1.1H4.5',
  thumbsDown: 'M4.5 9V2.5h-2V9zM4.5 9l2.6 5c1 0 1.7-.9 1.5-1.9L8.2 10h4c.9 0 1.5-.8 1.3-1.7l-1.1-4.7c-.2-.7-.8-1.1-1.5-1.1H4.5',
  clear: 'M8 2.5a5.5 5.5 0 1 0 0 11a5.5 5.5 0 1 0 0-11M4.1 11.9l7.8-7.8',
  graph: 'M2.5 13.5h11M4 11l3-4 2.5 2.5L13 4.5',
} as const;

export type IconName = keyof typeof PATHS;

export function icon(doc: Document, name: IconName): SVGSVGElement {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = doc.createElementNS(ns, 'svg');
  for (const [k, v] of Object.entries({
    viewBox: '0 0 16 16',
    width: '16',
    height: '16',
    fill: 'none',
    stroke: 'currentColor',
    'stroke-width': '1.3',
    'stroke-linecap': 'round',
    'stroke-linejoin': 'round',
    'aria-hidden': 'true',
    focusable: 'false',
    class: 'kd-icon',
  })) {
    svg.setAttribute(k, v);
  }
  const path = doc.createElementNS(ns, 'path');
  path.setAttribute('d', PATHS[name]);
  svg.appendChild(path);
  return svg;
}
