// The host's copy of what each page saved with setState, in workspace state. The workbench writes a webview's own
// state only when it saves the window's editors, which a reload right after typing can cut short (seen in the web
// workbench: a restored page without the question just typed). The page sends its state on every change instead
// (Messenger.setState), the host keeps it at once, and a restored panel gets whichever of the two is newer.
import type * as vscode from 'vscode';
import type { Log } from '../logger';
import { markOf } from './pageMark';
import type { PageState } from './protocol';

const KEY = 'knowledgeDesk.pageStates';
/** Pages kept: the most recently changed ones (a closed panel's entry ages out). */
const KEPT = 16;

type Kept = PageState & { viewType: string };

export class PageStates {
  /** Entries used by a restore in this window: a page without a mark takes the newest entry no other page took. */
  private readonly taken = new Set<string>();

  constructor(private readonly memento: vscode.Memento) {}

  private all(): Kept[] {
    const v = this.memento.get<unknown>(KEY);
    return Array.isArray(v) ? (v as Kept[]) : [];
  }

  keep(viewType: string, state: PageState): Thenable<void> {
    const rest = this.all().filter((k) => k.id !== state.id);
    const next = [{ ...state, viewType }, ...rest].sort((a, b) => b.at - a.at).slice(0, KEPT);
    return this.memento.update(KEY, next);
  }

  /**
   * The kept state to restore instead of `saved` (what the workbench saved), when it is newer. A page whose saved
   * state has no mark (lost, or saved before the page had one) gets the newest kept state of its kind no other
   * restored page took.
   */
  newerThan(viewType: string, saved: unknown): PageState | undefined {
    const mark = markOf(saved);
    const mine = this.all().filter((k) => k.viewType === viewType);
    const kept = mark ? mine.find((k) => k.id === mark.id) : mine.find((k) => !this.taken.has(k.id));
    if (!kept || (mark && kept.at <= mark.at)) return undefined;
    this.taken.add(kept.id);
    return { id: kept.id, at: kept.at, state: kept.state };
  }
}

let store: PageStates | undefined;
/** A panel restored with a kept state: its page gets that state with its HTML (WebviewPanelHost). */
const restored = new WeakMap<vscode.WebviewPanel, PageState>();

/** Called once at activation with the extension's workspace state. */
export function usePageStates(memento: vscode.Memento): PageStates {
  return (store = new PageStates(memento));
}

export function pageStates(): PageStates | undefined {
  return store;
}

/**
 * What a restored panel starts from: the host's copy when it is newer than what the workbench saved. It is given to
 * the page with its HTML too: a panel opened anew in place of a restored one that never loads
 * (WebviewPanelHost.onPageLate) has no webview state of its own.
 */
export function restoredState(viewType: string, panel: vscode.WebviewPanel, saved: unknown, log: Log): unknown {
  const kept = store?.newerThan(viewType, saved);
  if (kept) log.info(`${viewType}: restored from the state the page last sent`);
  const state = kept ? kept.state : saved;
  const mark = markOf(state);
  if (mark) restored.set(panel, { ...mark, state });
  return state;
}

export function takeRestored(panel: vscode.WebviewPanel): PageState | undefined {
  const state = restored.get(panel);
  restored.delete(panel);
  return state;
}
