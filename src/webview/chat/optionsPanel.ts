// The collapsible Options of the chat: scope, sources, hashtags, model, temperature.
import { parseHashtags } from '../../core/hashtags';
import type { ChatStrings } from '../../features/answers/chat/chatStrings';
import { defaultChatOptions, type ChatOptions, type ScopeItem } from '../../features/answers/chat/protocol';
import type { H } from '../shared/dom';
import { icon } from '../shared/icons';
import { format, formatNumber } from '../shared/strings';

export interface OptionsEvents {
  changed(options: ChatOptions): void;
  chooseScope(): void;
  toggled(open: boolean): void;
}

export class OptionsPanel {
  readonly element: HTMLDetailsElement;
  private readonly summaryText: HTMLElement;
  private readonly scopeList: HTMLElement;
  private readonly sources: Record<'document' | 'qna' | 'web', HTMLInputElement>;
  private readonly hashtags: HTMLInputElement;
  private readonly operator: HTMLSelectElement;
  private readonly model: HTMLInputElement;
  private readonly temperature: HTMLInputElement;
  private readonly temperatureValue: HTMLOutputElement;
  private scope: ScopeItem[] = [];

  constructor(
    private readonly h: H,
    private readonly doc: Document,
    private readonly s: ChatStrings,
    private readonly events: OptionsEvents,
  ) {
    const changed = (): void => {
      this.updateSummary();
      events.changed(this.value);
    };
    const check = (id: string, label: string): [HTMLInputElement, HTMLElement] => {
      const input = h('input', { attrs: { id, type: 'checkbox' }, on: { change: changed } });
      return [input, h('label', { class: 'kd-check', attrs: { for: id } }, input, label)];
    };
    const [doc1, docLabel] = check('chat-src-document', s.sourceDocuments);
    const [qna, qnaLabel] = check('chat-src-qna', s.sourceQna);
    const [web, webLabel] = check('chat-src-web', s.sourceWeb);
    this.sources = { document: doc1, qna, web };
    this.scopeList = h('ul', { class: 'kd-scope-list', attrs: { 'aria-label': s.scope } });
    this.hashtags = h('input', {
      class: 'kd-input',
      attrs: { id: 'chat-hashtags', type: 'text', placeholder: s.hashtagsPlaceholder, autocomplete: 'off' },
      on: { change: changed },
    });
    this.operator = h(
      'select',
      { class: 'kd-input kd-select', attrs: { id: 'chat-hashtags-op', 'aria-label': s.hashtagsOperator }, on: { change: changed } },
      h('option', { attrs: { value: 'or' } }, s.anyOfThem),
      h('option', { attrs: { value: 'and' } }, s.allOfThem),
    );
    this.model = h('input', {
      class: 'kd-input',
      attrs: { id: 'chat-model', type: 'text', placeholder: s.modelPlaceholder, autocomplete: 'off', spellcheck: 'false' },
      on: { change: changed },
    });
    this.temperatureValue = h('output', { class: 'kd-range-value', attrs: { for: 'chat-temperature', id: 'chat-temperature-value' } });
    this.temperature = h('input', {
      attrs: { id: 'chat-temperature', type: 'range', min: 0, max: 1, step: 0.1, 'aria-describedby': 'chat-temperature-help' },
      on: { input: () => (this.temperatureValue.textContent = this.formatTemperature(Number(this.temperature.value))), change: changed },
    });
    this.summaryText = h('span', { class: 'kd-options-summary' });
    const field = (label: string, forId: string | null, ...controls: Array<Node | null>): HTMLElement =>
      h(
        'div',
        { class: 'kd-option' },
        forId ? h('label', { class: 'kd-label', attrs: { for: forId } }, label) : h('span', { class: 'kd-label' }, label),
        ...controls,
      );
    const body = h(
      'div',
      { class: 'kd-options-body' },
      field(
        s.scope,
        null,
        h(
          'div',
          { class: 'kd-scope' },
          this.scopeList,
          h(
            'button',
            {
              class: 'kd-button kd-secondary kd-small',
              attrs: { type: 'button', 'data-action': 'chooseScope' },
              on: { click: () => events.chooseScope() },
            },
            icon(doc, 'add'),
            s.choose,
          ),
        ),
      ),
      h(
        'fieldset',
        { class: 'kd-option kd-sources-field' },
        h('legend', { class: 'kd-label' }, s.sources),
        h('div', { class: 'kd-checks' }, docLabel, qnaLabel, webLabel),
      ),
      field(s.hashtags, 'chat-hashtags', h('div', { class: 'kd-inline' }, this.hashtags, this.operator)),
      field(s.model, 'chat-model', this.model),
      field(
        s.temperature,
        'chat-temperature',
        h('div', { class: 'kd-inline' }, this.temperature, this.temperatureValue),
        h('div', { class: 'kd-description', attrs: { id: 'chat-temperature-help' } }, s.temperatureHelp),
      ),
    );
    this.element = h(
      'details',
      { class: 'kd-options' },
      h('summary', null, h('span', { class: 'kd-label' }, s.options), this.summaryText),
      body,
    );
    this.element.addEventListener('toggle', () => events.toggled(this.element.open));
    this.value = defaultChatOptions();
  }

  get value(): ChatOptions {
    const temperature = Math.min(1, Math.max(0, Number(this.temperature.value) || 0));
    return {
      scope: this.scope.map((s) => ({ ...s })),
      sources: { document: this.sources.document.checked, qna: this.sources.qna.checked, web: this.sources.web.checked },
      hashtags: parseHashtags(this.hashtags.value).slice(0, 50),
      hashtagsOperator: this.operator.value === 'and' ? 'and' : 'or',
      model: this.model.value.trim().slice(0, 200),
      temperature: Math.round(temperature * 10) / 10,
    };
  }

  set value(o: ChatOptions) {
    this.scope = o.scope.map((s) => ({ ...s }));
    this.sources.document.checked = o.sources.document;
    this.sources.qna.checked = o.sources.qna;
    this.sources.web.checked = o.sources.web;
    this.hashtags.value = o.hashtags.join(', ');
    this.operator.value = o.hashtagsOperator;
    this.model.value = o.model;
    this.temperature.value = String(o.temperature);
    this.temperatureValue.textContent = this.formatTemperature(o.temperature);
    this.renderScope();
    this.updateSummary();
  }

  set open(open: boolean) {
    this.element.open = open;
  }

  get open(): boolean {
    return this.element.open;
  }

  /** 0.3 as the display language writes it. */
  private formatTemperature(t: number): string {
    return formatNumber(t, { minimumFractionDigits: 1, maximumFractionDigits: 1 }, this.doc);
  }

  private renderScope(): void {
    const { h, s: str } = this;
    if (!this.scope.length) {
      this.scopeList.replaceChildren(h('li', { class: 'kd-scope-all' }, str.wholeKnowledgeBase));
      return;
    }
    this.scopeList.replaceChildren(
      ...this.scope.map((s) =>
        h(
          'li',
          { class: 'kd-chip', attrs: { title: format(str.scopeItemTitle, s.kind === 'folder' ? str.folder : str.document, s.name, s.id) } },
          h('span', { class: 'kd-scope-kind' }, s.kind === 'folder' ? str.folder : str.document),
          s.name,
          h(
            'button',
            {
              class: 'kd-chip-remove',
              attrs: { type: 'button', 'aria-label': format(str.removeFromScope, s.name), title: str.remove },
              on: { click: () => this.removeScope(s.id) },
            },
            icon(this.doc, 'close'),
          ),
        ),
      ),
    );
  }

  private removeScope(id: string): void {
    this.scope = this.scope.filter((s) => s.id !== id);
    this.renderScope();
    this.updateSummary();
    this.events.changed(this.value);
  }

  private updateSummary(): void {
    const o = this.value;
    const s = this.s;
    const from = (['document', 'qna', 'web'] as const)
      .filter((k) => o.sources[k])
      .map((k) => ({ document: s.summaryDocuments, qna: s.sourceQna, web: s.summaryWeb })[k]);
    const parts = [
      o.scope.length ? o.scope.map((item) => item.name).join(', ') : s.summaryWholeKnowledgeBase,
      from.length ? from.join(' + ') : s.summaryDefaultSources,
      o.hashtags.length ? o.hashtags.map((t) => `#${t}`).join(' ') : '',
      o.model ? o.model : '',
      o.temperature ? format(s.summaryTemperature, this.formatTemperature(o.temperature)) : '',
    ].filter(Boolean);
    this.summaryText.textContent = parts.join(' · ');
  }
}
