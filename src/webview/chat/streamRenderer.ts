// The answer while it streams: each delta is appended as text (never a re-render of the whole
// answer); each block is rendered as Markdown once, when a blank line outside a code fence ends it.
// Every character is appended once, rendered once in its block and once at the end: linear work.

export interface BlockRenderer {
  /** Sanitized nodes for a piece of Markdown. */
  render(markdown: string): DocumentFragment;
}

export interface StreamStats {
  /** Renders of the whole answer (the final one, and after a `replaced` delta). */
  fullRenders: number;
  /** Renders of one finished block while streaming. */
  blockRenders: number;
  deltas: number;
}

/** Called on every rendered fragment before it is shown (citation markers become superscripts). */
export type Decorate = (fragment: DocumentFragment) => void;

/** Turns a piece of streamed plain text into nodes (default: one text node). */
export type DecorateText = (text: string) => Node;

const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;

export class StreamingMarkdown {
  readonly element: HTMLElement;
  readonly stats: StreamStats = { fullRenders: 0, blockRenders: 0, deltas: 0 };
  private blocks!: HTMLElement;
  private tail!: HTMLElement;
  private parts: string[] = [];
  /** Complete lines of the block being streamed. */
  private lines: string[] = [];
  private line = '';
  private blockHasText = false;
  private fence: { char: string; length: number } | undefined;
  private finished = false;

  constructor(
    private readonly doc: Document,
    private readonly renderer: BlockRenderer,
    private readonly decorate: Decorate = () => undefined,
    private readonly decorateText: DecorateText = (text) => doc.createTextNode(text),
  ) {
    this.element = doc.createElement('div');
    this.element.className = 'kd-answer-body kd-rendered kd-streaming';
    this.resetDom();
  }

  get streaming(): boolean {
    return !this.finished;
  }

  /** The answer as received so far. */
  get text(): string {
    if (this.parts.length > 1) this.parts = [this.parts.join('')];
    return this.parts[0] ?? '';
  }

  /** Appends streamed text: one text node per delta, plus one block render when a block ends. */
  append(delta: string): void {
    if (!delta) return;
    this.stats.deltas++;
    if (this.finished) this.reopen();
    this.feed(delta);
  }

  private feed(delta: string): void {
    this.parts.push(delta);
    let pending = '';
    let start = 0;
    for (;;) {
      const nl = delta.indexOf('\n', start);
      if (nl === -1) {
        const rest = delta.slice(start);
        pending += rest;
        this.line += rest;
        break;
      }
      pending += delta.slice(start, nl + 1);
      const line = this.line + delta.slice(start, nl);
      this.line = '';
      start = nl + 1;
      if (this.completeLine(line)) {
        this.commit();
        pending = '';
      }
    }
    // One node (or one fragment: a single DOM mutation) per delta.
    if (pending) this.tail.appendChild(this.decorateText(pending));
  }

  /** The service re-rendered the answer (`replaced`): start over with the whole text. */
  replace(answer: string): void {
    this.stats.fullRenders++;
    this.parts = [];
    this.lines = [];
    this.line = '';
    this.blockHasText = false;
    this.fence = undefined;
    this.finished = false;
    this.resetDom();
    if (answer) this.feed(answer);
  }

  /** The final answer, rendered as Markdown once. */
  finish(markdown: string = this.text, decorate: Decorate = this.decorate): void {
    this.stats.fullRenders++;
    this.parts = [markdown];
    const fragment = this.renderer.render(markdown);
    decorate(fragment);
    this.element.replaceChildren(fragment);
    this.element.classList.remove('kd-streaming');
    this.finished = true;
  }

  /** A line ended; true when it ends a block (a blank line outside a code fence, after some text). */
  private completeLine(line: string): boolean {
    const fence = FENCE.exec(line);
    if (fence) {
      const marker = fence[1];
      if (!this.fence) {
        if (marker[0] !== '`' || !fence[2].includes('`')) this.fence = { char: marker[0], length: marker.length };
      } else if (marker[0] === this.fence.char && marker.length >= this.fence.length && !fence[2].trim()) {
        this.fence = undefined;
      }
    }
    this.lines.push(line);
    const blank = !line.trim();
    if (!blank) this.blockHasText = true;
    return blank && !this.fence && this.blockHasText;
  }

  private commit(): void {
    const markdown = this.lines.join('\n');
    this.lines = [];
    this.blockHasText = false;
    this.stats.blockRenders++;
    const fragment = this.renderer.render(markdown);
    this.decorate(fragment);
    this.blocks.appendChild(fragment);
    this.tail.replaceChildren();
  }

  /** More text after finish() (a late delta): stream again from the rendered whole. */
  private reopen(): void {
    const text = this.text;
    this.finished = false;
    this.replace(text);
  }

  private resetDom(): void {
    this.blocks = this.doc.createElement('div');
    this.blocks.className = 'kd-stream-blocks';
    this.tail = this.doc.createElement('p');
    this.tail.className = 'kd-stream-tail';
    this.element.replaceChildren(this.blocks, this.tail);
    this.element.classList.add('kd-streaming');
  }
}
