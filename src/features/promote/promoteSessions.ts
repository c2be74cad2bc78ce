// The two kinds of promote over the API's compare and apply (src/api/promote): Q&As and documents.
import * as vscode from 'vscode';
import type { ApiClient } from '../../api/client';
import { applyDocItems } from '../../api/promote/applyDocs';
import { applyQaItems, type ApplyOptions } from '../../api/promote/applyQas';
import type { ItemOutcome } from '../../api/promote/itemOutcomes';
import { compareProjectDocs, type DocRoot } from '../../api/promote/readDocs';
import { compareProjectQas } from '../../api/promote/readQas';
import { existingLookup } from '../../api/qaImport';
import type { DocPromoteItem } from '../../core/promote/docCompare';
import type { QaPromoteItem, QaSnapshot } from '../../core/promote/qaCompare';
import { qaCsv } from '../../core/qaFile/exportCsv';
import type { PromoteRow, PromoteSession } from './promoteSession';

interface Ends {
  source: ApiClient;
  target: ApiClient;
  sourceName: string;
  targetName: string;
}

/** Applies the items of the last compare whose keys were picked. */
function applyPicked<T>(
  ends: Ends,
  items: () => readonly T[],
  keyOf: (item: T) => string,
  run: (source: ApiClient, target: ApiClient, picked: T[], options: ApplyOptions) => Promise<{ outcomes: Map<string, ItemOutcome> }>,
): PromoteSession['apply'] {
  return async (keys, options) =>
    (
      await run(
        ends.source,
        ends.target,
        items().filter((i) => keys.has(keyOf(i))),
        options,
      )
    ).outcomes;
}

export function qnaSession(ends: Ends, ids: readonly string[] | undefined): PromoteSession {
  let items: QaPromoteItem[] = [];
  return {
    what: vscode.l10n.t('Q&As'),
    heading: vscode.l10n.t('Q&As'),
    sourceName: ends.sourceName,
    targetName: ends.targetName,
    async compare(signal, report) {
      const cmp = await compareProjectQas(ends.source, ends.target, {
        ids,
        signal,
        onProgress: (_phase, done, total) => report(vscode.l10n.t('Reading Q&As {0}/{1}', done, total)),
      });
      items = cmp.items;
      return items.map((i): PromoteRow => ({
        kind: i.kind,
        key: i.key,
        label: i.question,
        detail: i.changes?.map((c) => c.text).join('; '),
      }));
    },
    apply: applyPicked(
      ends,
      () => items,
      (i) => i.key,
      applyQaItems,
    ),
    async csv(signal) {
      // New Q&As were not read one by one to compare them, nor the target's own: read them now.
      const unreadSource = items.filter((i) => !i.source && i.sourceId);
      const unreadTarget = items.filter((i) => i.kind === 'onlyInTarget' && i.target);
      const [source, target] = await Promise.all([
        existingLookup(ends.source, new Map(unreadSource.map((i) => [i.key, i.sourceId!])))(
          unreadSource.map((i) => i.key),
          signal,
        ),
        existingLookup(ends.target, new Map(unreadTarget.map((i) => [i.key, i.target!.id])))(
          unreadTarget.map((i) => i.key),
          signal,
        ),
      ]);
      const sorted = [...items].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
      const row = (qa: QaSnapshot) => ({ ...qa, folder: qa.folder ?? undefined });
      return {
        source: qaCsv(sorted.flatMap((i) => (i.kind === 'onlyInTarget' ? [] : [row(i.source ?? source.get(i.key)!)]))),
        target: qaCsv(
          sorted.flatMap((i) => {
            if (i.kind === 'new') return [];
            const t = i.kind === 'onlyInTarget' ? target.get(i.key) : (i.target as QaSnapshot | undefined);
            return t ? [row(t)] : [];
          }),
        ),
      };
    },
  };
}

const DOC_FIELDS = (): Record<string, string> => ({
  content: vscode.l10n.t('content'),
  hashtags: vscode.l10n.t('hashtags'),
  status: vscode.l10n.t('on/off'),
});

export function docsSession(ends: Ends, roots: readonly DocRoot[]): PromoteSession {
  let items: DocPromoteItem[] = [];
  return {
    what: vscode.l10n.t('documents'),
    heading: vscode.l10n.t('Documents'),
    sourceName: ends.sourceName,
    targetName: ends.targetName,
    async compare(signal, report) {
      items = await compareProjectDocs(ends.source, ends.target, roots, {
        signal,
        onProgress: (done, total) => report(vscode.l10n.t('Reading folders {0}/{1}', done, total)),
      });
      const names = DOC_FIELDS();
      return items.map((i): PromoteRow => ({
        kind: i.kind,
        key: i.path,
        label: i.path,
        detail: i.changes?.map((c) => names[c]).join(', '),
      }));
    },
    apply: applyPicked(
      ends,
      () => items,
      (i) => i.path,
      applyDocItems,
    ),
  };
}
