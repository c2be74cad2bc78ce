// `knowledge-desk qna plan FILE` / `qna apply FILE`: the extension's Q&A import (src/features/qna/importFlow.ts)
// without its dialogs. The same dry run (src/core/qaFile/dryRun.ts: rows checked, existing Q&As compared field
// by field) and the same requests (src/api/qaImport.ts: new questions registered, only changed fields updated,
// an unchanged row not sent, so applying a file twice changes nothing the second time).
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { existingLookup, existingQuestionIds, importItems, runQaImport, type QaImportOutcome } from '../api/qaImport';
import { dryRunQaFile, type DryRunResult } from '../core/qaFile/dryRun';
import { ConfigError } from '../mcp/mcpConfig';
import { CONNECTION_HELP, EXIT, openCommand, parseWriteCommandArgs, progress, writeOptionsOf, type WriteOptions } from './connect';

export const QNA_USAGE = `Usage: knowledge-desk qna plan FILE [options]
       knowledge-desk qna apply FILE [--remove] [options]

The Q&A import of a CSV, TSV or XLSX file (the columns are read from its header, as in the extension).
  plan    the dry run: each row checked, and what importing does to each existing Q&A, field by field.
          Changes nothing.
  apply   the import: new questions registered, existing Q&As updated in the fields that change; a row
          that changes nothing is not sent. A file with an error in any row imports nothing.

A column the file does not have changes nothing. An empty cell in a column it has means none; taking
something away from an existing Q&A (a similar question, a hashtag, the folder, on → off) is a removal:
kept as it is unless --remove is given.

  --remove             apply: carry out the removals too (the extension asks; here the default keeps)
  --json               results as JSON
  --concurrency N      requests at once (default 4, at most 16)
${CONNECTION_HELP}
  -h, --help           this help

Exit status: 0 done (or a plan without errors), 1 a row has an error or a Q&A failed to import,
2 a usage or configuration error (nothing was changed).`;

interface QnaArgs extends WriteOptions {
  action: 'plan' | 'apply';
  file: string;
  remove: boolean;
}

async function parseQnaArgs(argv: string[], cwd: string): Promise<QnaArgs | 'help'> {
  const { values, positionals } = parseWriteCommandArgs(argv, { remove: { type: 'boolean' } });
  if (values.help) return 'help';
  const [action, file, ...extra] = positionals;
  if (action !== 'plan' && action !== 'apply')
    throw new ConfigError(action ? `Unknown qna action "${action}": use plan or apply.` : 'plan or apply?');
  if (!file) throw new ConfigError(`FILE: the Q&A file to ${action} is missing.`);
  if (extra.length) throw new ConfigError(`One file at a time, not ${extra.length + 1}.`);
  if (values.remove && action === 'plan') throw new ConfigError('--remove applies to qna apply only (a plan lists the removals anyway).');
  const full = path.resolve(cwd, file);
  const info = await stat(full).catch(() => undefined);
  if (!info) throw new ConfigError(`${file}: no such file.`);
  if (!info.isFile()) throw new ConfigError(`${file} is a folder: qna takes a CSV, TSV or XLSX file.`);
  return { action, file: full, remove: values.remove === true, ...writeOptionsOf(values) };
}

export async function qnaCommand(argv: string[], cwd = process.cwd()): Promise<number> {
  const opened = await openCommand('qna', QNA_USAGE, () => parseQnaArgs(argv, cwd));
  if (typeof opened === 'number') return opened;
  const { args, connected } = opened;
  try {
    progress('reading the existing Q&As…');
    const ids = await existingQuestionIds(connected.client);
    const fileName = path.basename(args.file);
    const dry = await dryRunQaFile(args.file, fileName, {
      existingQuestions: new Set(ids.keys()),
      lookup: existingLookup(connected.client, ids),
    });
    if (args.action === 'plan' || dry.summary.errors) {
      const text = args.json ? `${JSON.stringify(planJson(dry), null, 2)}\n` : planText(fileName, dry);
      if (args.action === 'apply') {
        process.stderr.write(text);
        progress(`${fileName}: nothing imported: fix the rows with errors and apply again.`);
      } else process.stdout.write(text);
      return dry.summary.errors ? EXIT.failed : EXIT.ok;
    }
    const items = importItems(dry.plan!, args.remove ? 'remove' : 'keep');
    const removals = dry.summary.removals ?? 0;
    if (removals && !args.remove)
      progress(`${removals} existing Q&A(s) would lose something: kept as they are (--remove applies the removals)`);
    progress(`importing ${items.length} Q&A(s) (${dry.summary.unchanged ?? 0} unchanged, not sent)`);
    const outcome = await runQaImport(connected.client, items, {
      concurrency: args.concurrency,
      onProgress: (done, o) => progress(`[${done}/${items.length}]${o.failed.length ? ` ${o.failed.length} failed` : ''}`),
    });
    process.stdout.write(args.json ? `${JSON.stringify(outcomeJson(outcome, dry), null, 2)}\n` : outcomeText(outcome, dry));
    return outcome.failed.length || outcome.cancelled ? EXIT.failed : EXIT.ok;
  } finally {
    await connected.close();
  }
}

const quote = (text: string): string => `"${text.length > 60 ? `${text.slice(0, 59)}…` : text}"`;

/** Problems that are not the plan's own change lines (those are listed as updates). */
const rowProblems = (dry: DryRunResult) =>
  dry.problems.filter((p) => p.code !== 'updates' && p.code !== 'removes').sort((a, b) => a.row - b.row);

function planText(fileName: string, dry: DryRunResult): string {
  const lines: string[] = [];
  for (const p of rowProblems(dry))
    lines.push(`${fileName}:${p.row}: ${p.severity}: Row ${p.row}${p.column ? ` (${p.column})` : ''}: ${p.message}`);
  for (const row of dry.plan?.create ?? []) lines.push(`create   row ${row.row} ${quote(row.question)}`);
  for (const u of dry.plan?.update ?? []) {
    lines.push(`update   row ${u.row.row} ${quote(u.row.question)}${u.removes ? ' (removes something: only with --remove)' : ''}`);
    for (const c of u.changes) lines.push(`           ${c.removes ? 'removal: ' : ''}${c.text}`);
  }
  const s = dry.summary;
  lines.push(
    `${s.total} rows: ${s.willCreate} to create, ${s.willUpdate} to update (${s.removals ?? 0} with removals), ${s.unchanged ?? 0} unchanged; ${s.errors} errors, ${rowProblems(dry).length - s.errors} warnings (plan only: nothing was changed)`,
  );
  return `${lines.join('\n')}\n`;
}

function planJson(dry: DryRunResult): unknown {
  return {
    summary: dry.summary,
    problems: rowProblems(dry),
    create: (dry.plan?.create ?? []).map((r) => ({ row: r.row, question: r.question })),
    update: (dry.plan?.update ?? []).map((u) => ({
      row: u.row.row,
      question: u.row.question,
      id: u.existing.id,
      removes: u.removes,
      changes: u.changes.map((c) => ({ field: c.field, removes: c.removes, text: c.text })),
    })),
  };
}

function outcomeText(o: QaImportOutcome, dry: DryRunResult): string {
  const lines = o.failed.map((f) => `failed   row ${f.item.row.row} ${quote(f.item.row.question)}: ${f.message}`);
  lines.push(
    `imported ${o.imported} of ${o.total} (${o.created} created, ${o.updated} updated), ${dry.summary.unchanged ?? 0} unchanged, ${o.failed.length} failed${o.cancelled ? `, ${o.cancelled} cancelled` : ''}`,
  );
  return `${lines.join('\n')}\n`;
}

function outcomeJson(o: QaImportOutcome, dry: DryRunResult): unknown {
  return {
    total: o.total,
    imported: o.imported,
    created: o.created,
    updated: o.updated,
    unchanged: dry.summary.unchanged ?? 0,
    cancelled: o.cancelled,
    failed: o.failed.map((f) => ({ row: f.item.row.row, question: f.item.row.question, message: f.message })),
  };
}
