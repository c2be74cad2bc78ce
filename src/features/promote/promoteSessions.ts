// The two kinds of promote over the API's compare and apply (src/api/promote): Q&As and documents.
import * as vscode from 'vscode';
import type { ApiClient } from '../../api/client';
import { applyDocItems } from '../../api/promote/applyDocs';
import { applyQaItems } from '../../api/promote/applyQas';
import type { ApplyItems, ItemOutcome } from '../../api/promote/itemOutcomes';
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

/** One kind of item: how it is read and compared, shown, keyed and applied. */
interface SessionKind<T> {
  what: string;
  heading: string;
  compare(signal: AbortSignal, report: (message: string) => void): Promise<T[]>;
  keyOf(item: T): string;
  row(item: T): Omit<PromoteRow, 'key'>;
  apply: ApplyItems<T, { outcomes: Map<string, ItemOutcome> }>;
  csv?(items: readonly T[], signal: AbortSignal): Promise<{ source: string; target: string }>;
}

/** A promote of one kind: apply carries out the items of the last compare whose keys were picked. */
function session<T>(ends: Ends, kind: SessionKind<T>): PromoteSession {
  let items: T[] = [];
  return {
    what: kind.what,
    heading: kind.heading,
    sourceName: ends.sourceName,
    targetName: ends.targetName,
    async compare(signal, report) {
      items = await kind.compare(signal, report);
      return items.map((i): PromoteRow => ({ ...kind.row(i), key: kind.keyOf(i) }));
    },
    async apply(keys, options) {
      const picked = items.filter((i) => keys.has(kind.keyOf(i)));
      return (await kind.apply(ends.source, ends.target, picked, options)).outcomes;
    },
    ...(kind.csv ? { csv: (signal: AbortSignal) => kind.csv!(items, signal) } : {}),
  };
}

export function qnaSession(ends: Ends, ids: readonly string[] | undefined): PromoteSession {
  return session<QaPromoteItem>(ends, {
    what: vscode.l10n.t('Q&As'),
    heading: vscode.l10n.t('Q&As'),
    compare: async (signal, report) =>
      (
        await compareProjectQas(ends.source, ends.target, {
          ids,
          signal,
          onProgress: (_phase, done, total) => report(vscode.l10n.t('Reading Q&As {0}/{1}', done, total)),
        })
      ).items,
    keyOf: (i) => i.key,
    row: (i) => ({ kind: i.kind, label: i.question, detail: i.changes?.map((c) => c.text).join('; ') }),
    apply: applyQaItems,
    async csv(items, signal) {
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
  });
}

const DOC_FIELDS = (): Record<string, string> => ({
  content: vscode.l10n.t('content'),
  hashtags: vscode.l10n.t('hashtags'),
  status: vscode.l10n.t('on/off'),
});

export function docsSession(ends: Ends, roots: readonly DocRoot[]): PromoteSession {
  const names = DOC_FIELDS();
  return session<DocPromoteItem>(ends, {
    what: vscode.l10n.t('documents'),
    heading: vscode.l10n.t('Documents'),
    compare: (signal, report) =>
      compareProjectDocs(ends.source, ends.target, roots, {
        signal,
        onProgress: (done, total) => report(vscode.l10n.t('Reading folders {0}/{1}', done, total)),
      }),
    keyOf: (i) => i.path,
    row: (i) => ({ kind: i.kind, label: i.path, detail: i.changes?.map((c) => names[c]).join(', ') }),
    apply: applyDocItems,
  });
}
