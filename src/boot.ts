// dist/extension.js, what VS Code loads: a few lines that load the extension itself (dist/main.js, built
// from src/extension.ts) with a V8 code cache in the extension's global storage, so activating Knowledge Desk
// in every window compiles nothing it compiled before. Deliberately tiny and free of `vscode` imports.
import * as path from 'node:path';
import type * as vscode from 'vscode';
import { loadWithCodeCache } from './platform/codeCache';
import type { BootInfo } from './extension';
import type { KnowledgeDeskTestApi } from './testApi';

type Main = typeof import('./extension');

let main: Main | undefined;

export function activate(context: vscode.ExtensionContext): KnowledgeDeskTestApi | undefined {
  const cacheDir = path.join(context.globalStorageUri.fsPath, 'code-cache');
  const loaded = loadWithCodeCache<Main>(path.join(__dirname, 'main.js'), { cacheDir });
  main = loaded.exports;
  const boot: BootInfo = { mainLoadMs: loaded.loadMs, codeCache: loaded.cache, saveCodeCache: () => loaded.save() };
  return main.activate(context, boot);
}

export function deactivate(): void {
  main?.deactivate();
}
