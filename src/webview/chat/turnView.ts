// One question and its answer in the transcript: the question bubble, the answer (streaming, then
// Markdown with citation links), the sources, the follow-up chip, and a stopped or error note.
import type { ChatStrings } from '../../features/answers/chat/chatStrings';
import type { ChatCitation, Turn } from '../../features/answers/chat/protocol';
import type { H } from '../shared/dom';
import { icon } from '../shared/icons';
import type { Sanitizer } from '../shared/sanitize';
import { format, formatNumber } from '../shared/strings';
import { decorateMarkers, markersInText, sourcesList } from './citationLinks';
import { StreamingMarkdown, type BlockRenderer } from './streamRenderer';

export interface TurnActions {
  openCitation(turn: Turn, citation: ChatCitation): void;
  followUp(turn: Turn): void;
  retry(turn: Turn): void;
  runAction(command: string): void;
  /** 👍 (true) / 👎 (false) clicked; the host decides whether it cancels. */
  feedback(turn: Turn, positive: boolean): void;
}

export interface TurnDeps {
  h: H;
  doc: Document;
  renderer: BlockRenderer;
  sanitizer: Sanitizer;
  actions: TurnActions;
  /** The page's texts (from the host, in the display language). */
  s: ChatStrings;
}

export class TurnView {
  readonly element: HTMLElement;
  readonly answer: StreamingMarkdown;
  /** Deltas applied (the host numbers them; a reload can repeat some). */
  seq: number;
  citationLinks = 0;
  private readonly extras: HTMLElement;
  private readonly footer: HTMLElement;
  private readonly progress: HTMLElement;
  private readonly feedbackRow: HTMLElement;
  /** False once the deployment said it takes no answer feedback (404/405). */
  private feedbackOffered = true;

  constructor(
    private turn: Turn,
    private readonly deps: TurnDeps,
  ) {
    const { h, doc, s } = deps;
    this.seq = turn.seq;
    // While streaming, markers are superscripts without links (the citations come at the end).
    this.answer = new StreamingMarkdown(
      doc,
      deps.renderer,
      (f) => void decorateMarkers(f, doc, { sourceId: (i) => this.sourceId(i), markerLabel: s.sourceMarker }),
      (text) => markersInText(doc, text),
    );
    this.extras = h('div', { class: 'kd-answer-extras' });
    this.footer = h('div', { class: 'kd-answer-footer' });
    this.feedbackRow = h('div', { class: 'kd-feedback', attrs: { role: 'group', 'aria-label': s.feedbackGroup, hidden: true } });
    this.progress = h(
      'div',
      { class: 'kd-answer-progress', attrs: { hidden: turn.status !== 'streaming' } },
      h('span', { class: 'kd-dots', attrs: { 'aria-hidden': 'true' } }, h('span'), h('span'), h('span')),
      s.answering,
    );
    this.element = h(
      'article',
      { class: 'kd-turn', attrs: { 'data-turn-id': turn.id, 'aria-label': format(s.questionLabel, turn.question.slice(0, 200)) } },
      h('div', { class: 'kd-question-row' }, h('div', { class: 'kd-question-bubble' }, turn.question)),
      // Not a live region: streamed chunks are not read out one by one. The page's status region says the
      // finished answer once (ChatLayout.announce).
      h(
        'div',
        { class: 'kd-answer', attrs: { 'aria-busy': String(turn.status === 'streaming') } },
        this.answer.element,
        this.progress,
        this.extras,
        this.feedbackRow,
        this.footer,
      ),
    );
    if (turn.status === 'streaming') {
      if (turn.answer) this.answer.append(turn.answer);
    } else {
      this.finish(turn);
    }
  }

  get id(): string {
    return this.turn.id;
  }

  get data(): Turn {
    return this.turn;
  }

  get streaming(): boolean {
    return this.turn.status === 'streaming';
  }

  applyDelta(text: string, replaced: boolean, seq: number): void {
    if (replaced) this.answer.replace(text);
    else this.answer.append(text);
    this.seq = seq;
  }

  /** The turn ended: the answer rendered as Markdown once, with its sources, follow-up and notes. */
  finish(turn: Turn): void {
    const { h, doc, s } = this.deps;
    this.turn = turn;
    this.seq = turn.seq;
    const citations = new Map(turn.citations.map((c) => [c.index, c]));
    this.citationLinks = 0;
    const decorate = (f: DocumentFragment): void =>
      void (this.citationLinks += decorateMarkers(f, doc, { citations, sourceId: (i) => this.sourceId(i), markerLabel: s.sourceMarker }));
    // Rendered as Markdown once, whatever the ending: a stopped or broken answer keeps what arrived.
    this.answer.finish(turn.answer, decorate);
    this.element.querySelector('.kd-answer')?.setAttribute('aria-busy', 'false');
    this.progress.hidden = true;
    const extras: Node[] = [];
    if (!turn.answer.trim() && turn.status === 'done') extras.push(h('p', { class: 'kd-muted' }, s.emptyAnswer));
    if (turn.status === 'stopped') extras.push(h('p', { class: 'kd-turn-note' }, s.stopped));
    if (turn.status === 'error' && turn.error) extras.push(this.errorNote(turn));
    if (turn.citations.length)
      extras.push(
        sourcesList(
          h,
          s,
          this.deps.sanitizer,
          turn.citations,
          turn.answer,
          (i) => this.sourceId(i),
          (c) => this.deps.actions.openCitation(this.turn, c),
        ),
      );
    if (turn.fuQuestion) {
      extras.push(
        h(
          'div',
          { class: 'kd-followups', attrs: { role: 'group', 'aria-label': s.suggestedFollowUp } },
          h(
            'button',
            {
              class: 'kd-followup',
              attrs: { type: 'button', title: s.followUpTitle },
              on: { click: () => this.deps.actions.followUp(this.turn) },
            },
            turn.fuQuestion,
          ),
        ),
      );
    }
    this.extras.replaceChildren(...extras);
    const footer: Node[] = [];
    if (turn.model) footer.push(h('span', { class: 'kd-model', attrs: { title: s.modelTitle } }, turn.model));
    for (const note of turn.notes ?? []) footer.push(h('span', { class: 'kd-answer-note' }, note));
    this.footer.replaceChildren(...footer);
    this.renderFeedback();
  }

  /**
   * What the page's live region says once this turn has ended: the answer's text and how many sources it has,
   * or that it was stopped. Nothing for an error: its note is an alert, read out on its own.
   */
  announcement(): string | null {
    const { s } = this.deps;
    const t = this.turn;
    if (t.status === 'stopped') return s.announceStopped;
    if (t.status !== 'done') return null;
    const text = (this.answer.element.textContent ?? '').replace(/\s+/g, ' ').trim();
    if (!text) return s.announceEmpty;
    const clipped = text.length > 2_000 ? `${text.slice(0, 1_999)}…` : text;
    const n = new Set(t.citations.map((c) => c.index)).size;
    const sources = n === 0 ? '' : n === 1 ? s.announceOneSource : format(s.announceSources, formatNumber(n, undefined, this.deps.doc));
    return [format(s.announceAnswer, clipped), sources].filter(Boolean).join(' ');
  }

  /** The host's answer to a click (or "not offered", which hides the buttons). */
  setFeedback(feedback: Turn['feedback'] | null, offered: boolean): void {
    this.turn = { ...this.turn, feedback: feedback ?? undefined };
    this.feedbackOffered = offered;
    this.renderFeedback();
  }

  /** What the feedback row shows, for snapshots: null when hidden. */
  get feedbackState(): { text: string; pressed: 'up' | 'down' | 'none' } | null {
    if (this.feedbackRow.hidden) return null;
    const f = this.turn.feedback;
    const p = f?.positive;
    const text = f ? `up ${f.positiveCount} · down ${f.negativeCount}` : ''; // l10n-ignore: for snapshots, never shown
    return { text, pressed: p === true ? 'up' : p === false ? 'down' : 'none' };
  }

  /** 👍/👎 as real buttons (Tab reaches them, Enter/Space press them), aria-pressed, counts after a click. */
  private renderFeedback(): void {
    const { h, s } = this.deps;
    const t = this.turn;
    const show = this.feedbackOffered && t.status === 'done' && !!t.answerHash && !!t.documentId;
    this.feedbackRow.hidden = !show;
    if (!show) return this.feedbackRow.replaceChildren();
    const f = t.feedback;
    const button = (positive: boolean): HTMLElement => {
      const pressed = f?.positive === positive;
      const label = positive ? s.helpful : s.notHelpful;
      const count = f ? (positive ? f.positiveCount : f.negativeCount) : undefined;
      const name = pressed ? format(s.feedbackPressed, label) : label;
      return h(
        'button',
        {
          class: `kd-feedback-button${pressed ? ' kd-pressed' : ''}`,
          attrs: {
            type: 'button',
            'data-action': positive ? 'feedbackUp' : 'feedbackDown',
            'aria-pressed': String(pressed),
            'aria-label': count !== undefined ? format(s.feedbackCount, name, formatNumber(count, undefined, this.deps.doc)) : name,
            title: pressed ? format(s.feedbackPressedTitle, label) : label,
          },
          on: { click: () => this.deps.actions.feedback(this.turn, positive) },
        },
        // Drawn icons, not emoji: every machine shows them, in the theme's colours.
        icon(this.deps.doc, positive ? 'thumbsUp' : 'thumbsDown'),
        count !== undefined
          ? h('span', { class: 'kd-feedback-count', attrs: { 'aria-hidden': 'true' } }, formatNumber(count, undefined, this.deps.doc))
          : '',
      );
    };
    this.feedbackRow.replaceChildren(button(true), button(false));
  }

  /** Moves focus to source `index` (a marker was clicked) and highlights it briefly. */
  revealSource(index: number): HTMLElement | null {
    const item = this.element.querySelector<HTMLElement>(`#${cssEscape(this.sourceId(index))} .kd-source`);
    if (!item) return null;
    // Only the transcript scrolls: scrollIntoView and a plain focus() would scroll every ancestor, the page too.
    const scroller = item.closest<HTMLElement>('.kd-transcript');
    if (scroller) {
      const box = item.getBoundingClientRect();
      const view = scroller.getBoundingClientRect();
      const by = box.top < view.top ? box.top - view.top - 8 : box.bottom > view.bottom ? box.bottom - view.bottom + 8 : 0;
      if (by) scroller.scrollBy?.({ top: by, behavior: 'smooth' });
    }
    item.focus({ preventScroll: true });
    item.classList.add('kd-flash');
    setTimeout(() => item.classList.remove('kd-flash'), 1200);
    return item;
  }

  sourceId(index: number): string {
    return `src-${this.turn.id}-${index}`;
  }

  private errorNote(turn: Turn): HTMLElement {
    const { h, doc, s } = this.deps;
    const actions = (turn.error?.actions ?? []).map((a) =>
      h(
        'button',
        {
          class: 'kd-button kd-secondary kd-small',
          attrs: { type: 'button' },
          on: { click: () => this.deps.actions.runAction(a.command) },
        },
        a.label,
      ),
    );
    return h(
      'div',
      { class: 'kd-turn-error', attrs: { role: 'alert' } },
      h('span', { class: 'kd-turn-error-text' }, turn.error?.message ?? s.answerFailed),
      h(
        'span',
        { class: 'kd-turn-error-actions' },
        h(
          'button',
          {
            class: 'kd-button kd-small',
            attrs: { type: 'button', 'data-action': 'retry' },
            on: { click: () => this.deps.actions.retry(this.turn) },
          },
          icon(doc, 'refresh'),
          s.retry,
        ),
        ...actions,
      ),
    );
  }
}

function cssEscape(id: string): string {
  return id.replace(/[^\w-]/g, (c) => `\\${c}`);
}
