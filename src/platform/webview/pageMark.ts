// The page's mark in its own state, apart from the protocol's schemas: the host's copy of page states
// (pageStates.ts) reads it at activation, which loads no zod.

/** The page's mark in its own state (Messenger.setState; the host's copy: pageStates.ts): which page it is and when it saved. */
export const PANEL_MARK = 'kdPanel';

export function markOf(state: unknown): { id: string; at: number } | undefined {
  const mark = state && typeof state === 'object' ? (state as Record<string, unknown>)[PANEL_MARK] : undefined;
  if (!mark || typeof mark !== 'object') return undefined;
  const { id, at } = mark as Record<string, unknown>;
  return typeof id === 'string' && typeof at === 'number' ? { id, at } : undefined;
}
