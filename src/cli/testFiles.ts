// The test files of a run: the paths given (a folder means the test files in it), or those under the current
// folder. Read and parsed here; the parsers themselves (src/core/knowledgeTests) do no I/O.
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ParsedTestFile } from '../core/knowledgeTests/testSchema';
import { decodeTestFile, parseTestFile } from '../core/knowledgeTests/testFile';
import { ConfigError } from '../mcp/mcpConfig';

export const TEST_FILE = /\.kdtest\.(ya?ml|csv)$/i;
const SKIPPED_FOLDERS = new Set(['node_modules', '.git', 'dist', 'out', '.vscode-test']);

export async function findTestFiles(args: readonly string[], cwd: string): Promise<string[]> {
  const found: string[] = [];
  for (const arg of args.length ? args : ['.']) {
    const full = path.resolve(cwd, arg);
    const info = await stat(full).catch(() => undefined);
    if (!info) throw new ConfigError(`${arg}: no such file or folder.`);
    if (info.isDirectory()) found.push(...(await walk(full)));
    else found.push(full);
  }
  if (!found.length) throw new ConfigError(`No knowledge test files (*.kdtest.yaml, *.kdtest.csv) in ${args.join(', ') || cwd}.`);
  return [...new Set(found)];
}

async function walk(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_FOLDERS.has(entry.name)) out.push(...(await walk(full)));
    } else if (TEST_FILE.test(entry.name)) out.push(full);
  }
  return out;
}

export async function readTestFile(file: string): Promise<ParsedTestFile> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(file);
  } catch (error) {
    throw new ConfigError(`${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}).`);
  }
  return parseTestFile(file, decodeTestFile(bytes));
}
