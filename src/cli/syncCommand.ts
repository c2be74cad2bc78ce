// `knowledge-desk sync DIR --folder PATH [--plan] [--delete]`: the extension's folder sync from the command
// line (src/api/uploads/folderSync.ts). A plan changes nothing; an apply sends each file once, and a rerun
// after a failure sends again only what did not arrive (the service skips identical files).
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  applyFolderSync,
  planFolderSync,
  syncedDocuments,
  waitProcessed,
  type FolderSyncPlan,
  type SyncItem,
  type SyncResult,
} from '../api/uploads/folderSync';
import { FAILED_PROCESS_STATES } from '../api/values';
import { ConfigError } from '../mcp/mcpConfig';
import { CONNECTION_HELP, EXIT, openCommand, parseWriteCommandArgs, progress, writeOptionsOf, type WriteOptions } from './connect';

export const SYNC_USAGE = `Usage: knowledge-desk sync DIR --folder PATH [--plan] [--delete] [options]

Syncs the folder DIR into the knowledge-base folder PATH ("Handbook/Policies"; created as needed; "/" is the
top level), file by file as the extension's folder sync does: a new file is created, a changed one replaced,
an identical one skipped; a subfolder goes into the knowledge-base folder of the same name. Rerun after a
failure, it sends only what did not arrive. Results go to stdout, progress to stderr.

  --folder PATH        the knowledge-base folder to sync into (required)
  --plan               list what would be created, replaced, skipped (and removed) and change nothing
  --delete             also remove what PATH has and DIR does not (documents and folders); without it
                       nothing is ever removed. Removals wait until every upload of the run succeeded.
  --wait               after syncing, wait until the documents are processed (searchable), so knowledge tests
                       run next see them; a document whose processing fails fails the sync
  --json               results as JSON
  --concurrency N      uploads at once (default 4, at most 16)
${CONNECTION_HELP}
  -h, --help           this help

Exit status: 0 done (or a plan without problems), 1 a file failed or cannot be synced (empty, unreadable),
2 a usage or configuration error (nothing was changed).`;

interface SyncArgs extends WriteOptions {
  dir: string;
  folder: string[];
  folderLabel: string;
  plan: boolean;
  remove: boolean;
  wait: boolean;
}

async function parseSyncArgs(argv: string[], cwd: string): Promise<SyncArgs | 'help'> {
  const { values, positionals } = parseWriteCommandArgs(argv, {
    folder: { type: 'string' },
    plan: { type: 'boolean' },
    delete: { type: 'boolean' },
    wait: { type: 'boolean' },
  });
  if (values.help) return 'help';
  if (positionals.length !== 1)
    throw new ConfigError(positionals.length ? `One folder to sync, not ${positionals.length}.` : 'DIR: the folder to sync is missing.');
  const dir = path.resolve(cwd, positionals[0]);
  const info = await stat(dir).catch(() => undefined);
  if (!info) throw new ConfigError(`${positionals[0]}: no such folder.`);
  if (!info.isDirectory()) throw new ConfigError(`${positionals[0]} is a file: sync takes a folder.`);
  if (values.folder === undefined)
    throw new ConfigError('--folder PATH is required: the knowledge-base folder to sync into ("/" is the top level).');
  const folder = values.folder
    .split('/')
    .map((s) => s.trim())
    .filter(Boolean);
  if (!folder.length && values.folder.trim() !== '/') throw new ConfigError('--folder is empty: name a folder, or "/" for the top level.');
  if (folder.some((s) => s === '.' || s === '..')) throw new ConfigError(`--folder ${values.folder}: "." and ".." are not folder names.`);
  return {
    dir,
    folder,
    folderLabel: folder.length ? folder.join('/') : '/',
    plan: values.plan === true,
    remove: values.delete === true,
    wait: values.wait === true,
    ...writeOptionsOf(values),
  };
}

export async function syncCommand(argv: string[], cwd = process.cwd()): Promise<number> {
  const opened = await openCommand('sync', SYNC_USAGE, () => parseSyncArgs(argv, cwd));
  if (typeof opened === 'number') return opened;
  const { args, connected } = opened;
  const tempDir = await mkdtemp(path.join(tmpdir(), 'kd-sync-'));
  const abort = new AbortController();
  const onSigint = (): void => abort.abort(new Error('interrupted'));
  process.once('SIGINT', onSigint);
  try {
    progress(`${args.plan ? 'planning' : 'syncing'} ${path.relative(cwd, args.dir) || '.'} → ${args.folderLabel}`);
    const plan = await planFolderSync(connected.client, {
      dir: args.dir,
      folder: args.folder,
      removals: args.remove,
      verify: args.plan,
      tempDir,
      compressionLevel: connected.isLocal ? 0 : 6,
      signal: abort.signal,
      onStatus: progress,
    });
    if (plan.missing.length) progress(`${plan.missing.join('/')} does not exist yet: it is created with the folder's files`);
    if (args.plan) return printPlan(args, plan);
    let done = 0;
    const total = plan.items.length;
    const results = await applyFolderSync(connected.client, plan, {
      concurrency: args.concurrency,
      signal: abort.signal,
      onResult: (r) =>
        progress(`[${++done}/${total}] ${r.outcome} ${described(r.item, args.folderLabel)}${r.message ? `: ${r.message}` : ''}`),
    });
    if (args.wait) {
      const documents = syncedDocuments(results);
      progress(`waiting for ${documents.length} document${documents.length === 1 ? '' : 's'} to be processed`);
      const failed = await waitProcessed(connected.client, documents, {
        signal: abort.signal,
        onFinal: (node) => progress(`processed ${node.name}: ${node.processState}`),
      });
      for (const node of failed) {
        const result = results.find((r) => r.nodes?.some((n) => n.id === node.id));
        const message = FAILED_PROCESS_STATES.has(node.processState)
          ? `processing failed (${node.processState})`
          : 'not processed in 30 minutes';
        if (result) Object.assign(result, { outcome: 'failed', message });
      }
    }
    return printResults(args, results);
  } finally {
    process.off('SIGINT', onSigint);
    await rm(tempDir, { recursive: true, force: true });
    await connected.close({ processed: !args.plan });
  }
}

const byPath = (a: { path: string }, b: { path: string }): number => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

/** Per action, in files: a new folder counts the files it brings. */
function count<T extends { files?: number }>(list: readonly T[], key: (t: T) => string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const t of list) out[key(t)] = (out[key(t)] ?? 0) + (t.files ?? 1);
  return out;
}

/** A folder created from a ZIP, said so: "sub/ (new folder, 3 files)"; the synced folder itself is named by its path. */
function described(item: { path: string; files?: number }, folderLabel: string): string {
  if (item.files === undefined) return item.path;
  const what = `new folder, ${item.files} file${item.files === 1 ? '' : 's'}`;
  return item.path === './' ? `${folderLabel}/ (${what})` : `${item.path} (${what})`;
}

function printPlan(args: SyncArgs, plan: FolderSyncPlan): number {
  const items = [...plan.items].sort(byPath);
  const problems = items.filter((i) => i.problem).length;
  const n = count(items, (i) => i.action);
  const totals = { create: n.create ?? 0, replace: n.replace ?? 0, skip: n.skip ?? 0, remove: n.remove ?? 0, problems };
  if (args.json) {
    const out = items.map((i: SyncItem) => ({
      path: i.path,
      ...(i.files !== undefined ? { files: i.files } : {}),
      action: i.action,
      ...(i.problem ? { problem: i.problem } : {}),
      ...(i.unverified ? { unverified: true } : {}),
    }));
    process.stdout.write(`${JSON.stringify({ dir: args.dir, folder: args.folderLabel, plan: true, items: out, totals }, null, 2)}\n`);
  } else {
    const lines = items.map((i) =>
      i.problem
        ? `error    ${described(i, args.folderLabel)}: ${i.problem}`
        : `${i.action.padEnd(8)} ${described(i, args.folderLabel)}${i.unverified ? ' (if changed: the service offers no download to compare)' : ''}`,
    );
    const summary = `${totals.create} to create, ${totals.replace} to replace, ${totals.skip} unchanged${args.remove ? `, ${totals.remove} to remove` : ''}, ${problems} problem${problems === 1 ? '' : 's'} (plan only: nothing was changed)`;
    process.stdout.write(`${[...lines, summary].join('\n')}\n`);
  }
  return problems ? EXIT.failed : EXIT.ok;
}

function printResults(args: SyncArgs, results: SyncResult[]): number {
  const rows = results
    .map((r) => ({
      path: r.item.path,
      outcome: r.outcome,
      ...(r.item.files !== undefined ? { files: r.item.files } : {}),
      ...(r.message ? { message: r.message } : {}),
    }))
    .sort(byPath);
  const n = count(rows, (r) => r.outcome);
  const failed = (n.failed ?? 0) + (n.cancelled ?? 0) + (n['not removed'] ?? 0);
  const totals = { created: n.created ?? 0, replaced: n.replaced ?? 0, skipped: n.skipped ?? 0, removed: n.removed ?? 0, failed };
  if (args.json) {
    process.stdout.write(`${JSON.stringify({ dir: args.dir, folder: args.folderLabel, plan: false, results: rows, totals }, null, 2)}\n`);
  } else {
    const lines = rows.map((r) => `${r.outcome.padEnd(8)} ${described(r, args.folderLabel)}${r.message ? `: ${r.message}` : ''}`);
    const summary = `${totals.created} created, ${totals.replaced} replaced, ${totals.skipped} skipped${args.remove ? `, ${totals.removed} removed` : ''}, ${failed} failed`;
    process.stdout.write(`${[...lines, summary].join('\n')}\n`);
  }
  return failed ? EXIT.failed : EXIT.ok;
}
