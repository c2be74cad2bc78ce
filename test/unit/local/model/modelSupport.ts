// Shared by the model tests: seeds, client identities, unique words, and the replay in commit order.
import assert from 'node:assert/strict';
import type { KbModel } from './kbModel';
import type { Acked } from './modelOps';

export const MODEL_OPS = Number(process.env.KD_MODEL_OPS ?? 5000);
export const MODEL_CLIENTS = Number(process.env.KD_MODEL_CLIENTS ?? 8);

export function modelSeeds(): number[] {
  if (process.env.KD_MODEL_SEED) return [Number(process.env.KD_MODEL_SEED)];
  return Array.from({ length: Number(process.env.KD_MODEL_SEEDS ?? 1) }, () => Math.floor(Math.random() * 2 ** 31));
}

/** A word the tokenizer keeps whole and no other content holds: letters only. */
export function tokenFactory(prefix: string): () => string {
  let n = 0;
  return () => {
    let x = n++;
    let s = '';
    do {
      s = String.fromCharCode(97 + (x % 26)) + s;
      x = Math.floor(x / 26);
    } while (x > 0);
    return `${prefix}${s}`;
  };
}

export function identityOf(i: number): { identity: { agentEmail?: string; ownUserId?: string }; voter: string } {
  return i % 2 === 0
    ? { identity: { agentEmail: `agent${i}@example.com` }, voter: `agent:agent${i}@example.com` }
    : { identity: { ownUserId: `user${i}` }, voter: `user:user${i}` };
}

/** Applies acknowledged operations in commit order; a mismatch names the operation. */
export function replay(acked: Acked[], model: KbModel, context: string): void {
  acked.sort((a, b) => a.seq - b.seq);
  for (let i = 1; i < acked.length; i++)
    assert.notEqual(acked[i].seq, acked[i - 1].seq, `${context}: two operations share commit ${acked[i].seq}`);
  for (const a of acked) {
    try {
      a.apply(model);
    } catch (error) {
      throw new Error(`${context}: ${a.kind} at commit ${a.seq}: ${(error as Error).message}`, { cause: error });
    }
  }
}
