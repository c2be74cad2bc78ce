// The question's length under the box: the count once it nears the service's limit; past it the count turns
// to the error colour, the box says it is not valid, and Send says why it does not send. Characters as people
// count them (core/charCount).
import type { ChatStrings } from '../../features/answers/chat/chatStrings';
import { questionLength } from '../../core/questionLimit';
import type { H } from '../shared/dom';
import { format, formatNumber } from '../shared/strings';

export class QuestionCounter {
  readonly element: HTMLElement;

  constructor(
    h: H,
    private readonly doc: Document,
    private readonly s: ChatStrings,
    private readonly input: HTMLTextAreaElement,
  ) {
    this.element = h('div', { class: 'kd-description kd-compose-count', attrs: { id: 'chat-question-count', hidden: true } });
  }

  /** Shows the length of what the box holds now. */
  update(): void {
    const length = questionLength(this.input.value);
    const shown = length.near || length.over;
    this.element.hidden = !shown;
    this.element.classList.toggle('kd-over', length.over);
    // The count only (in the error colour past the limit); why it cannot be sent is said when Send is pressed.
    this.element.textContent = shown ? this.describe(this.input.value, this.s.questionCount) : '';
    if (length.over) this.input.setAttribute('aria-invalid', 'true');
    else this.input.removeAttribute('aria-invalid');
  }

  /** Why `question` cannot be sent, in words; null when it can. */
  refusal(question: string): string | null {
    return questionLength(question).over ? this.describe(question, this.s.questionTooLong) : null;
  }

  /** The text under the box, null when none is shown. */
  get text(): string | null {
    return this.element.hidden ? null : this.element.textContent;
  }

  private describe(question: string, template: string): string {
    const { chars, max } = questionLength(question);
    const n = (v: number): string => formatNumber(v, undefined, this.doc);
    return format(template, n(chars), n(max));
  }
}
