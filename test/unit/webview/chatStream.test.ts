import assert from 'node:assert/strict';
import { loadPage, makeWindow, type El, type Win } from './support/page';

interface Stream {
  element: El;
  stats: { fullRenders: number; blockRenders: number; deltas: number };
  text: string;
  streaming: boolean;
  append(delta: string): void;
  replace(answer: string): void;
  finish(markdown?: string): void;
}
const { Sanitizer } = loadPage<{ Sanitizer: new (win: Win, o?: object) => unknown }>('src/webview/shared/sanitize');
const { MarkdownRenderer } = loadPage<{ MarkdownRenderer: new (s: unknown, doc: El, o?: object) => { render(md: string): El } }>(
  'src/webview/shared/markdown',
);
const { StreamingMarkdown } = loadPage<{ StreamingMarkdown: new (doc: El, r: unknown, d?: (f: El) => void) => Stream }>(
  'src/webview/chat/streamRenderer',
);

/** A stream renderer in jsdom whose Markdown renders are recorded. */
function setup() {
  const win = makeWindow('<div id="out"></div>');
  const md = new MarkdownRenderer(new Sanitizer(win), win.document, { html: true });
  const rendered: string[] = [];
  const stream = new StreamingMarkdown(win.document, { render: (m: string) => (rendered.push(m), md.render(m)) });
  win.document.getElementById('out').append(stream.element);
  const observer = new win.MutationObserver(() => undefined);
  observer.observe(stream.element, { childList: true, subtree: true, characterData: true, attributes: true });
  /** Appends one delta and returns how many DOM mutations it caused. */
  const push = (delta: string): number => {
    stream.append(delta);
    return observer.takeRecords().length;
  };
  return { win, md, stream, rendered, push, observer };
}

describe('Chat streaming renderer (jsdom)', () => {
  it('appends each delta without re-rendering the answer, and renders each finished block once', () => {
    const { stream, rendered, push } = setup();
    const chunks = [
      'New employees get **10 days**',
      ' of paid leave [1].',
      '\n',
      '\nLeave grows by one day',
      ' each year [2].\n\n',
      '- item one\n- item',
      ' two\n',
    ];
    const mutations = chunks.map(push);
    assert.deepEqual(
      rendered,
      ['New employees get **10 days** of paid leave [1].\n', 'Leave grows by one day each year [2].\n'],
      'one render per finished block',
    );
    assert.ok(Math.max(...mutations) <= 3, `mutations per delta: ${mutations}`);
    assert.equal(stream.stats.fullRenders, 0);
    assert.equal(stream.stats.deltas, chunks.length);
    const blocks = stream.element.querySelector('.kd-stream-blocks');
    assert.equal(blocks.querySelector('strong').textContent, '10 days');
    assert.equal(
      stream.element.querySelector('.kd-stream-tail').textContent,
      '- item one\n- item two\n',
      'the unfinished block shows as text',
    );
    stream.finish();
    assert.equal(stream.stats.fullRenders, 1);
    assert.equal(rendered.at(-1), chunks.join(''));
    assert.equal(stream.element.querySelectorAll('li').length, 2);
    assert.equal(stream.element.classList.contains('kd-streaming'), false);
  });

  it('does not split a code block at its blank lines, and handles delimiters cut across deltas', () => {
    const { stream, rendered, push } = setup();
    for (const d of ['Intro.\n', '\n``', '`ts\nconst a = 1;\n\n', 'const b = 2;\n`', '``\n', '\n', 'after']) push(d);
    assert.deepEqual(rendered, ['Intro.\n', '```ts\nconst a = 1;\n\nconst b = 2;\n```\n']);
    assert.equal(stream.element.querySelectorAll('pre').length, 1);
    assert.equal(stream.element.querySelector('pre code').textContent, 'const a = 1;\n\nconst b = 2;\n');
    assert.equal(stream.element.querySelector('.kd-stream-tail').textContent, 'after');
    assert.equal(stream.text, 'Intro.\n\n```ts\nconst a = 1;\n\nconst b = 2;\n```\n\nafter');
  });

  it('starts over on a replaced answer and keeps the text of every delta', () => {
    const { stream, push } = setup();
    push('Draft one.\n\nMore');
    stream.replace('Rewritten answer.\n\nWith two blocks');
    assert.equal(stream.stats.fullRenders, 1);
    assert.equal(stream.text, 'Rewritten answer.\n\nWith two blocks');
    assert.equal(stream.element.textContent, 'Rewritten answer.\nWith two blocks');
    push(' and more.');
    assert.equal(stream.text, 'Rewritten answer.\n\nWith two blocks and more.');
  });

  it('keeps mutations per delta constant however long the answer gets (2,000 chunks)', () => {
    const { stream, rendered, push } = setup();
    const counts: number[] = [];
    for (let i = 0; i < 2000; i++) counts.push(push(`Sentence ${i} of the answer [${(i % 5) + 1}].${i % 4 === 3 ? '\n\n' : ' '}`));
    assert.ok(Math.max(...counts) <= 3, `max mutations per delta ${Math.max(...counts)}`);
    assert.equal(rendered.length, 500, 'one render per paragraph, none per chunk');
    assert.equal(stream.stats.fullRenders, 0);
    assert.equal(stream.element.querySelectorAll('.kd-stream-blocks > p').length, 500);
  });
});
