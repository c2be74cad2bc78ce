// The chat page's answers to the tests' requests, in the test build only (controller.ts require()s this file
// behind `globalThis.__KD_TEST__`): `snapshot`, what the page shows; `drive`, what a person would do, one action
// per call, through the page's own controls (clicks, and keys pressed on the focused element).
import type { ChatOptions, ChatProtocol, Conversation, ChatSnapshot, DriveParams } from '../../features/answers/chat/protocol';
import type { ChatStrings } from '../../features/answers/chat/chatStrings';
import type { Messenger } from '../shared/messenger';
import type { ChatLayout } from './layout';
import { describeFocus, describeTurn } from './turnSnapshot';
import type { TurnView } from './turnView';

export interface DriveTarget {
  doc: Document;
  layout: ChatLayout;
  strings: ChatStrings;
  /** The controller's state as it is now. */
  state(): {
    ready: boolean;
    conversation: Conversation | null;
    views: TurnView[];
    streaming: TurnView | undefined;
    stats: ChatSnapshot['stats'];
  };
  /** A turn by id, or the last one. */
  find(turnId?: string): TurnView | undefined;
  setOptions(options: Partial<ChatOptions>): void;
  switchTo(conversationId: string): void;
}

/** Registers the page's handlers of the tests' `snapshot` and `drive` requests. */
export function answerTests(m: Messenger<ChatProtocol>, t: DriveTarget): void {
  m.handle('snapshot', () => snapshot(t));
  m.handle('drive', (p) => {
    driveChat(t, p);
    return snapshot(t);
  });
}

function snapshot(t: DriveTarget): ChatSnapshot {
  const { ready, conversation, views, streaming, stats } = t.state();
  return {
    ready,
    conversationId: conversation?.id ?? null,
    title: conversation?.title ?? '',
    streaming: streaming?.id ?? null,
    ...t.layout.describe(),
    turns: views.map((v) => describeTurn(v, t.strings)),
    focused: describeFocus(t.doc),
    stats,
  };
}

function driveChat(t: DriveTarget, p: DriveParams): void {
  const { layout, find } = t;
  const win = t.doc.defaultView!;
  if (p.options) t.setOptions(p.options);
  if (p.toggleOptions) layout.options.open = !layout.options.open;
  if (p.focus) focusFor(t, p.focus);
  if (p.type !== undefined) {
    layout.input.value = p.type;
    layout.input.dispatchEvent(new win.Event('input', { bubbles: true }));
  }
  if (p.send) layout.input.dispatchEvent(new win.KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
  if (p.stop) layout.stopButton.click();
  if (p.clickCitation)
    find(p.clickCitation.turnId)?.element.querySelector<HTMLElement>(`.kd-source[data-index="${p.clickCitation.index}"]`)?.click();
  if (p.clickMarker)
    find(p.clickMarker.turnId)?.element.querySelector<HTMLElement>(`a.kd-cite-link[data-index="${p.clickMarker.index}"]`)?.click();
  if (p.clickFollowUp) find(p.clickFollowUp.turnId)?.element.querySelector<HTMLElement>('.kd-followup')?.click();
  if (p.retry) find(p.retry.turnId)?.element.querySelector<HTMLElement>('[data-action="retry"]')?.click();
  if (p.feedback)
    find(p.feedback.turnId)
      ?.element.querySelector<HTMLElement>(`[data-action="${p.feedback.positive ? 'feedbackUp' : 'feedbackDown'}"]`)
      ?.click();
  const click = (action: string): void => layout.root.querySelector<HTMLElement>(`[data-action="${action}"]`)?.click();
  if (p.newChat) click('newChat');
  if (p.exportChat) click('exportChat');
  if (p.chooseScope) click('chooseScope');
  if (p.setIdentity) click('setIdentity');
  if (p.switchTo) t.switchTo(p.switchTo);
  if (p.press) press(t.doc, p.press.key, !!p.press.shift);
}

function focusFor(t: DriveTarget, target: NonNullable<DriveParams['focus']>): void {
  const layout = t.layout;
  if (target === 'question') return layout.input.focus();
  if (target === 'send') return layout.sendButton.focus();
  if (target === 'stop') return layout.stopButton.focus();
  const selector =
    target.source !== undefined ? `.kd-source[data-index="${target.source}"]` : `a.kd-cite-link[data-index="${target.marker ?? 1}"]`;
  t.find(target.turnId)?.element.querySelector<HTMLElement>(selector)?.focus();
}

/**
 * A key pressed on the focused element, as the keyboard would: keydown (the page's own handlers), then what the
 * browser does for a trusted Enter or Space on a button or link that no handler prevented (a click).
 */
function press(doc: Document, key: string, shiftKey: boolean): void {
  const target = (doc.activeElement as HTMLElement | null) ?? doc.body;
  const event = new doc.defaultView!.KeyboardEvent('keydown', { key, shiftKey, bubbles: true, cancelable: true });
  if (!target.dispatchEvent(event)) return;
  const activates = key === 'Enter' ? target.matches('button, a[href]') : key === ' ' && target.matches('button'); // l10n-ignore: selectors
  if (activates) target.click();
}
