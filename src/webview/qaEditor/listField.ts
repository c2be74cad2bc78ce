// The two list controls of the form: similar questions (rows to add, edit, remove) and hashtags (chips).
// Keyboard: Up/Down move between the rows; Left from the hashtag box reaches the chips, which are one tab stop
// (Left/Right/Home/End move among them, Delete or Backspace removes one, Escape goes back to the box).
// Every text comes from the host (labels are templates with {0} for the row's number or the hashtag).
import { normalizeHashtags, parseHashtags, takeTypedHashtags } from '../../core/hashtags';
import type { FieldErrors } from '../../features/qna/editor/protocol';
import { uid, type H } from '../shared/dom';
import { icon } from '../shared/icons';
import { format } from '../shared/strings';

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
    private readonly opts: {
      id: string;
      /** {0}: the row's number. */
      itemLabel: string;
      /** {0}: the row's number. */
      removeLabel: string;
      addLabel: string;
      removeTip: string;
      placeholder: string;
      onChange(): void;
    },
  ) {
    this.list = h('ol', { class: 'kd-list', attrs: { id: opts.id } });
    const add = h(
      'button',
      { class: 'kd-button kd-secondary kd-small', attrs: { type: 'button' }, on: { click: () => this.add('', this.rows.length, true) } },
      icon(doc, 'add'),
      opts.addLabel,
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
      } else if ((e.key === 'ArrowUp' || e.key === 'ArrowDown') && !e.isComposing && !e.altKey && !e.ctrlKey && !e.metaKey && !e.shiftKey) {
        const next = this.rows[this.rows.indexOf(row) + (e.key === 'ArrowUp' ? -1 : 1)];
        if (next) {
          e.preventDefault();
          next.input.focus();
        }
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
      r.input.setAttribute('aria-label', format(this.opts.itemLabel, i + 1));
      r.remove.setAttribute('aria-label', format(this.opts.removeLabel, i + 1));
      r.remove.title = this.opts.removeTip;
    });
  }
}

/** Hashtags as chips; type and press Enter or comma (a pasted "a, b, #c" becomes three). */
export class ChipsField {
  readonly element: HTMLElement;
  readonly input: HTMLInputElement;
  private readonly chips: HTMLElement;
  private tags: string[] = [];
  /** The chip that holds the chips' one tab stop (roving tabindex). */
  private active = 0;
  private disabled = false;

  constructor(
    private readonly h: H,
    private readonly doc: Document,
    private readonly opts: {
      id: string;
      describedBy: string;
      listLabel: string;
      placeholder: string;
      /** {0}: the hashtag. */
      removeLabel: string;
      removeTip: string;
      onChange(): void;
    },
  ) {
    this.chips = h('ul', { class: 'kd-chips-list', attrs: { 'aria-label': opts.listLabel } });
    this.input = h('input', {
      class: 'kd-chips-input',
      attrs: {
        id: opts.id,
        type: 'text',
        placeholder: opts.placeholder,
        'aria-describedby': opts.describedBy,
        autocomplete: 'off',
      },
    });
    this.element = h('div', { class: 'kd-chips kd-input' }, this.chips, this.input);
    this.element.addEventListener('click', (e) => e.target === this.element && this.input.focus());
    this.input.addEventListener('keydown', (e) => {
      if (e.isComposing) return;
      if (e.key === 'Enter' || e.key === ',') {
        e.preventDefault();
        this.commit();
      } else if (e.key === 'Backspace' && !this.input.value && this.tags.length) {
        e.preventDefault();
        this.setTags(this.tags.slice(0, -1));
      } else if (e.key === 'ArrowLeft' && this.tags.length && this.input.selectionStart === 0 && this.input.selectionEnd === 0) {
        e.preventDefault();
        this.focusChip(this.tags.length - 1);
      }
    });
    this.input.addEventListener('input', () => {
      const { done, rest } = takeTypedHashtags(this.input.value);
      if (!done.length && rest === this.input.value) return this.opts.onChange();
      this.input.value = rest;
      this.setTags(normalizeHashtags([...this.tags, ...done]));
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
    this.disabled = disabled;
    this.input.disabled = disabled;
    for (const b of this.buttons()) b.disabled = disabled;
  }

  private buttons(): HTMLButtonElement[] {
    return Array.from(this.chips.querySelectorAll('button'));
  }

  private focusChip(index: number): void {
    const buttons = this.buttons();
    if (!buttons.length) return this.input.focus();
    this.active = Math.max(0, Math.min(index, buttons.length - 1));
    buttons.forEach((b, i) => (b.tabIndex = i === this.active ? 0 : -1));
    buttons[this.active].focus();
  }

  private onChipKey(e: KeyboardEvent, index: number): void {
    const last = this.tags.length - 1;
    const move: Record<string, number | undefined> = { ArrowLeft: index - 1, ArrowRight: index + 1, Home: 0, End: last };
    if (e.key in move) {
      e.preventDefault();
      const target = move[e.key]!;
      if (target > last) this.input.focus();
      else this.focusChip(Math.max(0, target));
    } else if (e.key === 'Delete' || e.key === 'Backspace') {
      e.preventDefault();
      this.removeAt(index);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      this.input.focus();
    }
  }

  /** Removes one chip; focus goes to the chip that takes its place (the last one if it was last), or the box when none is left. */
  private removeAt(index: number): void {
    this.setTags(this.tags.filter((_, j) => j !== index));
    if (this.tags.length) this.focusChip(Math.min(index, this.tags.length - 1));
    else this.input.focus();
  }

  private commit(): void {
    if (!this.input.value.trim()) return;
    const added = parseHashtags(this.input.value);
    this.input.value = '';
    this.setTags(normalizeHashtags([...this.tags, ...added]));
  }

  private setTags(tags: string[], notify = true): void {
    this.tags = tags;
    this.active = Math.min(this.active, Math.max(0, tags.length - 1));
    this.chips.replaceChildren(
      ...tags.map((tag, i) => {
        const remove = this.h(
          'button',
          {
            class: 'kd-chip-remove',
            attrs: {
              type: 'button',
              'aria-label': format(this.opts.removeLabel, tag),
              title: this.opts.removeTip,
              tabindex: i === this.active ? 0 : -1,
            },
          },
          icon(this.doc, 'close'),
        );
        remove.disabled = this.disabled;
        remove.addEventListener('click', () => {
          this.setTags(this.tags.filter((_, j) => j !== i));
          this.input.focus();
        });
        remove.addEventListener('keydown', (e) => this.onChipKey(e, i));
        return this.h('li', { class: 'kd-chip' }, `#${tag}`, remove);
      }),
    );
    if (notify) this.opts.onChange();
  }
}
