import * as vscode from 'vscode';
import { ApiAbortError, isAbortError } from '../api/errors';

/** Converts a VS Code cancellation token into an AbortSignal at the boundary to the API client. */
export function toAbortSignal(token: vscode.CancellationToken | undefined): { signal: AbortSignal | undefined; dispose(): void } {
  if (!token) return { signal: undefined, dispose: () => undefined };
  const controller = new AbortController();
  if (token.isCancellationRequested) controller.abort(new vscode.CancellationError());
  const sub = token.onCancellationRequested(() => controller.abort(new vscode.CancellationError()));
  return { signal: controller.signal, dispose: () => sub.dispose() };
}

/** A cancellation by the user, in any of its forms: to be silent, never shown as an error. */
export function isCancellation(error: unknown): boolean {
  return (
    error instanceof vscode.CancellationError ||
    error instanceof ApiAbortError ||
    isAbortError(error) ||
    (error instanceof Error && error.name === 'Canceled')
  );
}
