// Refusals of a promote, worded for the person (through @vscode/l10n, as plainRefusal.ts): the same project on
// both sides, and a target (or source) that lacks an operation the copy needs.
import * as l10n from '@vscode/l10n';
import { KnowledgeDeskError, MethodNotAllowedError, NotFoundError, OperationNotOfferedError } from '../errors';
import { OPERATIONS, type OperationName } from '../../core/operations';
import { sameProject } from '../../core/promote/sameProject';
import type { ApiClient } from '../client';

export class PromoteRefusedError extends KnowledgeDeskError {
  override readonly name = 'PromoteRefusedError';
  constructor(
    readonly reason: 'sameProject' | 'notOffered',
    message: string,
  ) {
    super(message);
  }
}

/** Throws when both clients reach one project (same address, same key): a copy onto itself changes nothing at best. */
export function refuseSameProject(source: ApiClient, target: ApiClient): void {
  if (sameProject(source.config, target.config))
    throw new PromoteRefusedError(
      'sameProject',
      l10n.t(
        'Both connections reach the same project ({0} with the same API key): choose a connection to another project.',
        source.config.baseUrl,
      ),
    );
}

/** A route the deployment lacks: OperationNotOfferedError, a 405, or a 404 of a listing (which names no id). */
export function isNotOffered(error: unknown): boolean {
  return error instanceof OperationNotOfferedError || error instanceof MethodNotAllowedError || error instanceof NotFoundError;
}

/**
 * Runs `call` and turns a missing route into a refusal naming the side and what it lacks. Only for calls that name
 * no id (listings, folder creation): there a 404 cannot mean an unknown item.
 */
export async function needOffered<T>(side: 'source' | 'target', operation: OperationName, call: () => Promise<T>): Promise<T> {
  // Named by the table's method and path, as a person checking the deployment's documentation would look it up.
  const what = `${OPERATIONS[operation].method} ${OPERATIONS[operation].path}`;
  try {
    return await call();
  } catch (error) {
    if (!isNotOffered(error)) throw error;
    const status = error instanceof MethodNotAllowedError ? '405' : error instanceof NotFoundError ? '404' : l10n.t('not offered');
    throw new PromoteRefusedError(
      'notOffered',
      side === 'target'
        ? l10n.t('The target project does not offer {0} (answer: {1}): nothing can be copied to it this way.', what, status)
        : l10n.t('The source project does not offer {0} (answer: {1}): nothing can be copied from it this way.', what, status),
    );
  }
}
