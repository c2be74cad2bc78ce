// Chat streaming render (jsdom): answers of 500, 1,000 and 2,000 chunks through the page's own turn
// view (append per delta, Markdown per finished block, one full render at the end). Work per chunk
// should stay flat as answers grow (linear total). Baseline, same run: re-rendering the whole answer
// as Markdown on every chunk, the approach the page avoids (quadratic).
import path from 'node:path';
import { SMOKE, table } from './support';

const root = path.resolve(__dirname, '../..');
// Page modules use DOM types the Node program does not have: loaded with require, as the jsdom unit tests do.
const load = <T>(p: string): T => require(path.join(root, p)) as T;
const { JSDOM } = require('jsdom') as { JSDOM: new (html: string, o?: object) => { window: any } };
const { Sanitizer } = load<{ Sanitizer: new (win: any) => any }>('src/webview/shared/sanitize');
const { MarkdownRenderer } = load<{ MarkdownRenderer: new (s: any, doc: any, o?: object) => { render(md: string): any } }>(
  'src/webview/shared/markdown',
);
const { createH } = load<{ createH: (doc: any) => any }>('src/webview/shared/dom');
const { TurnView } = load<{ TurnView: new (turn: any, deps: any) => any }>('src/webview/chat/turnView');
const { chatStrings } = load<{ chatStrings: () => object }>('src/features/answers/chat/chatStrings');

const WORDS = [
  'leave',
  'policy',
  'employees',
  'manager',
  'request',
  'approval',
  'portal',
  'days',
  'year',
  'expenses',
  'receipt',
  'travel',
  'hotel',
  'limit',
  'remote',
  'office',
];

/** Chunk i of a long answer: sentences with citation markers, paragraphs, a list now and then, a code block with a blank line. */
function chunk(i: number): string {
  const words = Array.from({ length: 9 }, (_, k) => WORDS[(i * 7 + k * 3) % WORDS.length]).join(' ');
  if (i % 200 === 150) return '```ts\nconst days = 15;\n\nconst carry = 5;\n```\n\n';
  if (i % 50 === 20) return `- ${words} [${(i % 4) + 1}]\n`;
  const sentence = `${words[0].toUpperCase()}${words.slice(1)} **${i}** days [${(i % 4) + 1}].`;
  return i % 4 === 3 ? `${sentence}\n\n` : `${sentence} `;
}

function page() {
  const { window: win } = new JSDOM('<!DOCTYPE html><html><body><main id="app"></main></body></html>', {
    url: 'https://webview.test/',
    pretendToBeVisual: true,
  });
  const sanitizer = new Sanitizer(win);
  const markdown = new MarkdownRenderer(sanitizer, win.document, { html: true });
  const deps = {
    h: createH(win.document),
    doc: win.document,
    renderer: markdown,
    sanitizer,
    actions: { openCitation() {}, followUp() {}, retry() {}, runAction() {} },
    // The page's texts, as the host sends them (the turn view reads labels from them).
    s: chatStrings(),
  };
  return { win, deps, markdown };
}

interface Run {
  chars: number;
  streamMs: number;
  finishMs: number;
  blockRenders: number;
  maxMutations: number;
}

function stream(n: number): Run {
  const { win, deps } = page();
  const turn = { id: 't', question: 'q', answer: '', citations: [], stateful: false, status: 'streaming', askedAt: 0, seq: 0 };
  const view = new TurnView(turn, deps);
  win.document.getElementById('app').append(view.element);
  const observer = new win.MutationObserver(() => undefined);
  observer.observe(view.element, { childList: true, subtree: true, characterData: true });
  const chunks = Array.from({ length: n }, (_, i) => chunk(i));
  let maxMutations = 0;
  const t0 = performance.now();
  chunks.forEach((c, i) => {
    view.applyDelta(c, false, i + 1);
    const m = observer.takeRecords().length;
    if (m > maxMutations) maxMutations = m;
  });
  const streamMs = performance.now() - t0;
  const answer = chunks.join('');
  const citations = [1, 2, 3, 4].map((index) => ({
    index,
    title: `doc-${index}.pdf`,
    source: 'document',
    pageNo: index,
    text: 'Cited text.',
  }));
  const t1 = performance.now();
  view.finish({ ...turn, status: 'done', answer, citations, seq: n });
  const finishMs = performance.now() - t1;
  observer.disconnect();
  win.close();
  return { chars: answer.length, streamMs, finishMs, blockRenders: view.answer.stats.blockRenders, maxMutations };
}

/** The baseline: the whole answer rendered as Markdown on every chunk. */
function naive(n: number): number {
  const { win, markdown } = page();
  const el = win.document.getElementById('app');
  let answer = '';
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    answer += chunk(i);
    el.replaceChildren(markdown.render(answer));
  }
  const ms = performance.now() - t0;
  win.close();
  return ms;
}

const SIZES = (process.env.KD_BENCH_CHAT_CHUNKS ?? (SMOKE ? '20,40' : '500,1000,2000')).split(',').map(Number);
const NAIVE = (process.env.KD_BENCH_CHAT_NAIVE ?? (SMOKE ? '10' : '250,500')).split(',').map(Number);

stream(300); // warm-up (JIT, markdown-it and DOMPurify caches)
const rows: Array<Array<string | number>> = [];
for (const n of SIZES) {
  const runs = [stream(n), stream(n), stream(n)].sort((a, b) => a.streamMs - b.streamMs);
  const r = runs[1]; // median of three
  rows.push([
    `${n.toLocaleString('en')} chunks`,
    r.chars,
    r.streamMs,
    (r.streamMs / n) * 1000,
    r.finishMs,
    r.streamMs + r.finishMs,
    ((r.streamMs + r.finishMs) / n) * 1000,
    r.blockRenders,
    r.maxMutations,
  ]);
}
table(
  'Streaming into the chat page (median of 3 runs)',
  ['answer', 'chars', 'stream ms', 'µs/chunk', 'final render ms', 'total ms', 'total µs/chunk', 'block renders', 'max DOM mutations/chunk'],
  rows,
);

const base: Array<Array<string | number>> = [];
for (const n of NAIVE) {
  const ms = naive(n);
  base.push([`${n.toLocaleString('en')} chunks`, ms, (ms / n) * 1000]);
}
table('Baseline: whole answer re-rendered on every chunk (what the page does not do)', ['answer', 'total ms', 'µs/chunk'], base);

const perChunk = rows.map((r) => Number(r[6]));
const growth = perChunk[perChunk.length - 1] / perChunk[0];
console.log(
  `\nper-chunk time, ${SIZES[SIZES.length - 1]} vs ${SIZES[0]} chunks: ×${growth.toFixed(2)} (flat ≈ ×1: linear total work; the baseline grows with the answer)`,
);
