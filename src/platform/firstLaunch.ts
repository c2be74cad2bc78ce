// Once per installation, not per window: the flag lives in the extension's globalState, which every window of
// the profile shares (and, in the browser, every tab of the same origin: hence npm start's fixed port). No
// `vscode` here, so the rule is unit-tested in plain Node.

/** The part of vscode.Memento this needs. */
export interface FlagStore {
  get(key: string): unknown;
  update(key: string, value: unknown): Thenable<void>;
}

/** globalState key: true once the Get Started walkthrough was opened after the install. */
export const WALKTHROUGH_SHOWN_KEY = 'knowledgeDesk.walkthroughShown';

/**
 * Runs `open` the first time it is asked in this installation and never again. The flag is written before the
 * walkthrough opens: a second window starting meanwhile reads it set, and a failing open is not retried in every
 * later window. Returns whether it opened.
 */
export async function openOnce(store: FlagStore, key: string, open: () => Thenable<unknown>): Promise<boolean> {
  if (store.get(key) === true) return false;
  await store.update(key, true);
  await open();
  return true;
}
