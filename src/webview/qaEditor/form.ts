// The Q&A form: a labelled control per field, a character counter where there is a limit, and an
// error line under each field (linked with aria-describedby).
import type { FieldErrors, QaDraft } from '../../features/qna/editor/protocol';
import type { QaEditorStrings } from '../../features/qna/editor/qaEditorStrings';
import { charCount } from '../../core/charCount';
import { QA_LIMITS } from '../../core/qaFile/limits';
import { emptyDraft } from '../../features/qna/editor/qaDraft';
import type { H } from '../shared/dom';
import { format, formatNumber, pageStrings } from '../shared/strings';
import { ChipsField, ListField } from './listField';

type ErrorSlot = 'question' | 'similarQuestions' | 'answer' | 'hashtags' | 'folder' | 'memo';

export class QaForm {
  /** Question, answer, similar questions, memo. */
  readonly element: HTMLElement;
  /** Status, hashtags, folder, visibility (shown beside the preview). */
  readonly settings: HTMLElement;
  private readonly question: HTMLTextAreaElement;
  private readonly similar: ListField;
  private readonly answer: HTMLTextAreaElement;
  private readonly hashtags: ChipsField;
  /** "Choose…" beside the hashtags: the host's picker of the hashtags in use. */
  readonly chooseHashtags: HTMLButtonElement;
  private readonly status: HTMLInputElement;
  private readonly statusText: HTMLElement;
  private readonly folder: HTMLInputElement;
  private readonly agents: HTMLInputElement;
  private readonly users: HTMLInputElement;
  private readonly memo: HTMLTextAreaElement;
  private readonly memoField: HTMLElement;
  private readonly errorSlots = {} as Record<ErrorSlot, HTMLElement>;
  private readonly counters: Array<() => void> = [];
  private memoValue = '';
  private readonly s: QaEditorStrings;

  constructor(
    private readonly h: H,
    private readonly doc: Document,
    onChange: () => void,
    onChooseHashtags: () => void,
  ) {
    const s = (this.s = pageStrings<QaEditorStrings>(doc));
    const changed = (): void => {
      this.updateCounters();
      onChange();
    };
    this.question = h('textarea', {
      class: 'kd-input kd-question',
      attrs: { id: 'qa-question', rows: 2, placeholder: s.questionPlaceholder, required: true, 'aria-required': 'true' },
    });
    this.answer = h('textarea', {
      class: 'kd-input kd-code-input',
      attrs: {
        id: 'qa-answer',
        rows: 12,
        placeholder: s.answerPlaceholder,
        required: true,
        'aria-required': 'true',
        spellcheck: 'false',
      },
    });
    this.similar = new ListField(h, doc, {
      id: 'qa-similar',
      placeholder: s.similarPlaceholder,
      itemLabel: s.similarItem,
      removeLabel: s.removeSimilar,
      addLabel: s.addSimilar,
      removeTip: s.remove,
      onChange: changed,
    });
    this.hashtags = new ChipsField(h, doc, {
      id: 'qa-hashtags',
      describedBy: 'qa-hashtags-desc qa-hashtags-error',
      listLabel: s.hashtags,
      placeholder: s.hashtagPlaceholder,
      removeLabel: s.removeHashtag,
      removeTip: s.remove,
      onChange: changed,
    });
    this.chooseHashtags = h(
      'button',
      {
        class: 'kd-button kd-secondary kd-small kd-choose',
        attrs: { type: 'button', id: 'qa-hashtags-choose', title: s.chooseHashtagsTip, 'aria-label': s.chooseHashtagsTip },
        on: { click: onChooseHashtags },
      },
      s.chooseHashtags,
    );
    this.status = h('input', { attrs: { id: 'qa-status', type: 'checkbox', role: 'switch' } });
    this.statusText = h('span', { class: 'kd-status-text' });
    this.folder = h('input', { class: 'kd-input', attrs: { id: 'qa-folder', type: 'text', placeholder: s.folderPlaceholder } });
    this.agents = h('input', { attrs: { id: 'qa-agents', type: 'checkbox' } });
    this.users = h('input', { attrs: { id: 'qa-users', type: 'checkbox' } });
    this.memo = h('textarea', { class: 'kd-input', attrs: { id: 'qa-memo', rows: 3, placeholder: s.memoPlaceholder } });
    for (const el of [this.question, this.answer, this.folder, this.memo, this.status, this.agents, this.users]) {
      el.addEventListener((el as HTMLInputElement).type === 'checkbox' ? 'change' : 'input', changed);
    }
    this.status.addEventListener('change', () => this.updateStatusText());

    this.memoField = this.field('memo', s.memo, this.memo, { limit: QA_LIMITS.memo, description: s.memoDescription });
    this.element = h(
      'div',
      { class: 'kd-form', attrs: { role: 'group', 'aria-label': s.questionAndAnswer } },
      this.field('question', s.question, this.question, { limit: QA_LIMITS.question }),
      this.field('answer', s.answer, this.answer, { limit: QA_LIMITS.answer, description: s.answerDescription }),
      this.field('similarQuestions', s.similarQuestions, this.similar.element, {
        description: format(s.similarDescription, this.number(QA_LIMITS.similarQuestions)),
        labelFor: false,
        count: () => this.countOf(this.similar.values.filter((q) => q.trim()).length, QA_LIMITS.similarQuestions),
      }),
      this.memoField,
    );
    this.settings = h(
      'div',
      { class: 'kd-form', attrs: { role: 'group', 'aria-label': s.details } },
      h(
        'div',
        { class: 'kd-field' },
        h('span', { class: 'kd-label', attrs: { id: 'qa-status-label' } }, s.status),
        h('label', { class: 'kd-check', attrs: { for: 'qa-status' } }, this.status, this.statusText),
      ),
      this.field('hashtags', s.hashtags, h('div', { class: 'kd-hashtags-line' }, this.hashtags.element, this.chooseHashtags), {
        labelFor: 'qa-hashtags',
        description: s.hashtagDescription,
        count: () => this.countOf(this.hashtags.values.length, QA_LIMITS.hashtags),
      }),
      this.field('folder', s.folder, this.folder, { limit: QA_LIMITS.folder }),
      h(
        'fieldset',
        { class: 'kd-fieldset' },
        h('legend', { class: 'kd-label' }, s.visibility),
        h('label', { class: 'kd-check', attrs: { for: 'qa-agents' } }, this.agents, s.otherAgentsView),
        h('label', { class: 'kd-check', attrs: { for: 'qa-users' } }, this.users, s.otherUsersView),
      ),
    );
    this.value = emptyDraft();
  }

  get value(): QaDraft {
    return {
      question: this.question.value,
      similarQuestions: this.similar.values,
      answer: this.answer.value,
      hashtags: this.hashtags.values,
      status: this.status.checked ? 'on' : 'off',
      folder: this.folder.value,
      allowOtherAgentsView: this.agents.checked,
      allowOtherUsersView: this.users.checked,
      memo: this.memoField.hidden ? this.memoValue : this.memo.value,
    };
  }

  set value(d: QaDraft) {
    this.question.value = d.question;
    this.similar.values = d.similarQuestions;
    this.answer.value = d.answer;
    this.hashtags.values = d.hashtags;
    this.status.checked = d.status === 'on';
    this.folder.value = d.folder;
    this.agents.checked = d.allowOtherAgentsView;
    this.users.checked = d.allowOtherUsersView;
    this.memo.value = this.memoValue = d.memo;
    this.updateStatusText();
    this.updateCounters();
  }

  /** The hashtags chosen in the host's picker replace the field's (the picker started with them ticked). */
  setHashtags(tags: string[]): void {
    this.hashtags.values = tags;
    this.updateCounters();
  }

  get hashtagValues(): string[] {
    return this.hashtags.values;
  }

  /** The memo field exists only while the Q&A is new. */
  setNew(isNew: boolean): void {
    this.memoField.hidden = !isNew;
  }

  showErrors(errors: FieldErrors): void {
    for (const [slot, el] of Object.entries(this.errorSlots) as Array<[ErrorSlot, HTMLElement]>) {
      const message = errors[slot] ?? '';
      el.textContent = message;
      el.hidden = !message;
      this.control(slot)?.toggleAttribute('aria-invalid', !!message);
    }
    this.similar.setErrors(errors, 'similarQuestions');
  }

  focusFirstInvalid(): void {
    const order: ErrorSlot[] = ['question', 'similarQuestions', 'answer', 'hashtags', 'folder', 'memo'];
    for (const slot of order) {
      if (!this.errorSlots[slot].hidden)
        return void (slot === 'similarQuestions' ? (this.similar.firstInvalid() ?? this.question) : this.control(slot))?.focus();
    }
    this.similar.firstInvalid()?.focus();
  }

  setDisabled(disabled: boolean): void {
    for (const el of [this.question, this.answer, this.folder, this.memo, this.status, this.agents, this.users]) el.disabled = disabled;
    this.similar.setDisabled(disabled);
    this.hashtags.setDisabled(disabled);
    this.chooseHashtags.disabled = disabled;
  }

  focus(): void {
    this.question.focus();
  }

  private control(slot: ErrorSlot): HTMLElement | undefined {
    return {
      question: this.question,
      answer: this.answer,
      folder: this.folder,
      memo: this.memo,
      hashtags: this.hashtags.input,
      similarQuestions: undefined,
    }[slot];
  }

  private updateStatusText(): void {
    this.statusText.textContent = this.status.checked ? this.s.statusOnText : this.s.statusOffText;
  }

  private number(n: number): string {
    return formatNumber(n, undefined, this.doc);
  }

  private countOf(n: number, limit: number): string {
    return `${this.number(n)} / ${this.number(limit)}`; // the same in every language
  }

  private updateCounters(): void {
    for (const update of this.counters) update();
  }

  private field(
    slot: ErrorSlot,
    label: string,
    control: HTMLElement,
    opts: { limit?: number; description?: string; labelFor?: string | false; count?: () => string },
  ): HTMLElement {
    const h = this.h;
    const id = opts.labelFor === undefined ? control.id : opts.labelFor;
    const errorId = `qa-${slot}-error`;
    const describedBy = [opts.description ? `qa-${slot}-desc` : '', errorId].filter(Boolean).join(' ');
    if (control.id) control.setAttribute('aria-describedby', describedBy);
    const labelEl = id
      ? h('label', { class: 'kd-label', attrs: { for: id } }, label)
      : h('span', { class: 'kd-label', attrs: { id: `qa-${slot}-label` } }, label);
    if (!id) control.setAttribute('aria-labelledby', `qa-${slot}-label`);
    const counter = h('span', { class: 'kd-counter', attrs: { 'aria-live': 'off' } });
    if (opts.limit !== undefined || opts.count) {
      this.counters.push(() => {
        if (opts.count) counter.textContent = opts.count();
        else {
          const n = charCount((control as HTMLInputElement).value ?? '');
          counter.textContent = this.countOf(n, opts.limit!);
          counter.classList.toggle('kd-over', n > opts.limit!);
        }
      });
    }
    const error = h('div', { class: 'kd-error', attrs: { id: errorId, hidden: true, role: 'alert' } });
    this.errorSlots[slot] = error;
    return h(
      'div',
      { class: 'kd-field' },
      h('div', { class: 'kd-label-row' }, labelEl, counter),
      opts.description ? h('div', { class: 'kd-description', attrs: { id: `qa-${slot}-desc` } }, opts.description) : null,
      control,
      error,
    );
  }
}
