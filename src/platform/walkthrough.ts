// The Get Started walkthrough (package.json contributes.walkthroughs): opened once after the install, and each
// step completed from what really happened (connected, an upload that sent something, a citation that opened,
// an import that registered Q&As).
//
// Two ways, because VS Code's walkthrough service misses one on its own (read in VS Code 1.100,
// gettingStartedService.ts registerDoneListeners): it starts when a walkthrough is first shown in a window, and a
// step's `onContext:` expression that is already true then is recorded as seen and never completes the step, nor
// does any later change. So "Local is connected, then Welcome: Open Walkthrough" left step 1 unticked.
// - The context keys (onContext completion events) complete a step whose page was already running.
// - `welcome.markStepComplete` (the command VS Code's own walkthroughs use for steps done elsewhere) completes it
//   whenever the result happens; the progress is stored, so a page opened later shows it.
import * as vscode from 'vscode';
import { ContextKeys, WALKTHROUGH_ID } from './commandIds';
import { setContext } from './contextKeys';
import { openOnce, WALKTHROUGH_SHOWN_KEY } from './firstLaunch';
import type { Log } from './logger';

type ContextKey = (typeof ContextKeys)[keyof typeof ContextKeys];

export type WalkthroughResult = 'connected' | 'uploaded' | 'citationOpened' | 'imported';

const STEPS: Record<WalkthroughResult, { step: string; key?: ContextKey }> = {
  /** onContext:knowledgeDesk.connectionState == connected, kept by features/connection. */
  connected: { step: 'connect' },
  uploaded: { step: 'upload', key: ContextKeys.walkthroughUploaded },
  citationOpened: { step: 'ask', key: ContextKeys.walkthroughCitationOpened },
  imported: { step: 'import', key: ContextKeys.walkthroughImported },
};

/** Step ids as VS Code names them: `<publisher>.<name>#<walkthrough>#<step>`. */
export const walkthroughStepId = (step: string): string => `${WALKTHROUGH_ID}#${step}`;

/** VS Code registers a walkthrough's steps a moment after its service starts; the command fails until then. */
const MARK_ATTEMPTS = 10;
const MARK_RETRY_MS = 500;

export function completeWalkthroughStep(result: WalkthroughResult): void {
  const entry = STEPS[result];
  if (entry.key) setContext(entry.key, true);
  void markStepComplete(walkthroughStepId(entry.step));
}

async function markStepComplete(stepId: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await vscode.commands.executeCommand('welcome.markStepComplete', stepId);
      return;
    } catch (error) {
      // Anything but "not registered yet" (a VS Code without the command): the context keys still complete it.
      if (attempt >= MARK_ATTEMPTS || !/does not exist|unknown step/i.test(String(error))) return;
      await new Promise((r) => setTimeout(r, MARK_RETRY_MS));
    }
  }
}

/**
 * Opens the walkthrough the first time Knowledge Desk activates after the install (VS Code itself opens it only
 * for an install from the Extensions view of a running window), never again, in no other window. Resolves to
 * whether it opened.
 */
export function openWalkthroughOnFirstLaunch(globalState: vscode.Memento, log: Log): Promise<boolean> {
  return openOnce(globalState, WALKTHROUGH_SHOWN_KEY, () =>
    vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH_ID, false),
  ).catch((error: unknown) => {
    log.warn(`walkthrough not opened: ${String(error)}`);
    return false;
  });
}
