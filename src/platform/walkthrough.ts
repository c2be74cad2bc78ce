// The Get Started walkthrough (package.json contributes.walkthroughs) completes a step when its context key
// turns true. Steps that complete by a result, not by running a command, are marked here, from the place
// where the result happens (an upload that sent something, a citation that opened, an import that registered Q&As).
import { ContextKeys } from './commandIds';
import { setContext } from './contextKeys';

const STEP_KEYS = {
  uploaded: ContextKeys.walkthroughUploaded,
  citationOpened: ContextKeys.walkthroughCitationOpened,
  imported: ContextKeys.walkthroughImported,
} as const;

export type WalkthroughResult = keyof typeof STEP_KEYS;

export function completeWalkthroughStep(step: WalkthroughResult): void {
  setContext(STEP_KEYS[step], true);
}
