// The two list controls of the form: similar questions (rows to add, edit, remove) and hashtags (chips).
import { normalizeHashtags, parseHashtags } from '../../core/hashtags';
import type { FieldErrors } from '../../features/qna/editor/protocol';
import { uid, type H } from '../shared/dom';
import { icon } from '../shared/icons';

interface Row {
  row: HTMLLIElement;
  input: HTMLInputElement;
  remove: HTMLButtonElement;
  error: HTMLElement;
}

export class ListField {
  readonly element: HTMLElement;
  private readonly list: HTMLOListElement;
  private rows: Row[] = [];

  constructor(
    private readonly h: H,
    private readonly doc: Document,
    private readonly opts: { id: string; itemLabel: string; placeholder: string; onChange(): void },
  ) {
    this.list = h('ol', { class: 'kd-list', attrs: { id: opts.id } });
    const add = h(
      'button',
      { class: 'kd-button kd-secondary kd-small', attrs: { type: 'button' }, on: { click: () => this.add('', this.rows.length, true) } },
      icon(doc, 'add'),
      `Add ${opts.itemLabel.toLowerCase()}`,
    );
    this.element = h('div', { class: 'kd-list-field' }, this.list, add);
  }

  get values(): string[] {
    return this.rows.map((r) => r.input.value);
  }

  set values(values: string[]) {
    this.list.replaceChildren();
    this.rows = [];
    values.forEach((v, i) => this.add(v, i, false));
  }

  setErrors(errors: FieldErrors, prefix: string): void {
    this.rows.forEach((r, i) => {
      const message = errors[`${prefix}.${i}`] ?? '';
      r.error.textContent = message;
      r.error.hidden = !message;
      r.input.toggleAttribute('aria-invalid', !!message);
    });
  }

  /** The first row with an error, to move focus there. */
  firstInvalid(): HTMLElement | undefined {
    return this.rows.find((r) => r.input.hasAttribute('aria-invalid'))?.input;
  }

  setDisabled(disabled: boolean): void {
    for (const r of this.rows) r.input.disabled = r.remove.disabled = disabled;
  }

  private add(value: string, index: number, focus: boolean): void {
    const h = this.h;
    const errorId = uid(`${this.opts.id}-error`);
    const input = h('input', {
      class: 'kd-input',
      attrs: { type: 'text', placeholder: this.opts.placeholder, 'aria-describedby': errorId },
    });
    input.value = value;
    const row: Row = {
      input,
      remove: h('button', { class: 'kd-icon-button', attrs: { type: 'button' } }, icon(this.doc, 'close')),
      error: h('div', { class: 'kd-error', attrs: { id: errorId, hidden: true } }),
      row: h('li', { class: 'kd-list-row' }),
    };
    row.row.append(h('div', { class: 'kd-list-line' }, input, row.remove), row.error);
    input.addEventListener('input', () => this.opts.onChange());
    input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && !e.isComposing) {
        e.preventDefault();
        this.add('', this.rows.indexOf(row) + 1, true);
      } else if (e.key === 'Backspace' && !input.value && this.rows.length > 0 && !e.isComposing) {
        e.preventDefault();
        this.remove(row, true);
      }
    });
    row.remove.addEventListener('click', () => this.remove(row, true));
    this.rows.splice(index, 0, row);
    this.list.insertBefore(row.row, this.list.children[index] ?? null);
    this.relabel();
    if (focus) {
      input.focus();
      this.opts.onChange();
    }
  }

  private remove(row: Row, focus: boolean): void {
    const i = this.rows.indexOf(row);
    this.rows.splice(i, 1);
    row.row.remove();
    this.relabel();
    if (focus) (this.rows[Math.max(0, i - 1)]?.input ?? this.element.querySelector('button'))?.focus();
    this.opts.onChange();
  }

  private relabel(): void {
    this.rows.forEach((r, i) => {
      r.input.setAttribute('aria-label', `${this.opts.itemLabel} ${i + 1}`);
      r.remove.setAttribute('aria-label', `Remove ${this.opts.itemLabel.toLowerCase()} ${i + 1}`);
      r.remove.title = 'Remove';
    });
  }
}

/** Hashtags as chips; type and press Enter or comma (a pasted "a, b, #c" becomes three). */
export class ChipsField {
  readonly element: HTMLElement;
  readonly input: HTMLInputElement;
  private readonly chips: HTMLElement;
  private tags: string[] = [];

  constructor(
    private readonly h: H,
    private readonly doc: Document,
    private readonly opts: { id: string; describedBy: string; onChange(): void },
  ) {
    this.chips = h('ul', { class: 'kd-chips-list', attrs: { 'aria-label': 'Hashtags' } });
    this.input = h('input', {
      class: 'kd-chips-input',
      attrs: {
        id: opts.id,
        type: 'text',
        placeholder: 'Add a hashtag, then Enter',
        'aria-describedby': opts.describedBy,
        autocomplete: 'off',
      },
    });
    this.element = h('div', { class: 'kd-chips kd-input' }, this.chips, this.input);
    this.element.addEventListener('click', (e) => e.target === this.element && this.input.focus());
    this.input.addEventListener('keydown', (e) => {
      if ((e.key === 'Enter' || e.key === ',') && !e.isComposing) {
        e.preventDefault();
        this.commit();
      } else if (e.key === 'Backspace' && !this.input.value && this.tags.length) {
        e.preventDefault();
        this.setTags(this.tags.slice(0, -1));
      }
    });
    this.input.addEventListener('input', () => {
      if (/[,，、\s]/.test(this.input.value)) this.commit();
      else this.opts.onChange();
    });
    this.input.addEventListener('blur', () => this.commit());
  }

  /** The chips plus whatever is typed and not yet committed. */
  get values(): string[] {
    return normalizeHashtags([...this.tags, ...parseHashtags(this.input.value)]);
  }

  set values(values: string[]) {
    this.input.value = '';
    this.setTags(normalizeHashtags(values), false);
  }

  setDisabled(disabled: boolean): void {
    this.input.disabled = disabled;
    for (const b of Array.from(this.chips.querySelectorAll('button'))) b.disabled = disabled;
  }

  private commit(): void {
    if (!this.input.value.trim()) return;
    const added = parseHashtags(this.input.value);
    this.input.value = '';
    this.setTags(normalizeHashtags([...this.tags, ...added]));
  }

  private setTags(tags: string[], notify = true): void {
    this.tags = tags;
    this.chips.replaceChildren(
      ...tags.map((tag, i) => {
        const remove = this.h(
          'button',
          { class: 'kd-chip-remove', attrs: { type: 'button', 'aria-label': `Remove hashtag ${tag}`, title: 'Remove' } },
          icon(this.doc, 'close'),
        );
        remove.addEventListener('click', () => {
          this.setTags(this.tags.filter((_, j) => j !== i));
          this.input.focus();
        });
        return this.h('li', { class: 'kd-chip' }, `#${tag}`, remove);
      }),
    );
    if (notify) this.opts.onChange();
  }
}
