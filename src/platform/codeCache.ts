// Loads a CommonJS bundle with a V8 code cache kept in a folder of the user's own (the extension's global
// storage). Compiling dist/main.js (~400 KB) is most of what activating Knowledge Desk costs in every window;
// with the cache V8 deserialises the compiled code instead (about half the CPU time, see `npm run bench`).
// VS Code's extension host offers no code cache for extensions, and Node 20 has no module compile cache.
//
// Safety: V8 checks a cache against the source's length and the engine's flags, not its content, so the
// cache file's name carries what identifies the content (size, modification time, V8 version, arch); it lives
// in a folder only this user writes (never a shared temp folder); a cache V8 rejects is recompiled and replaced.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import Module from 'node:module';
import * as path from 'node:path';
import * as vm from 'node:vm';

export interface CodeCacheLoad<T> {
  readonly exports: T;
  /** 'hit' when V8 took the cached code, 'miss' when there was none, 'rejected' when V8 refused it. */
  readonly cache: 'hit' | 'miss' | 'rejected' | 'off';
  readonly loadMs: number;
  /** Writes the cache when this load did not use one. Call it once the code has run (more functions compiled). */
  save(): { written: boolean; error?: string };
}

export interface CodeCacheOptions {
  /** Folder for cache files; undefined loads without a cache. */
  cacheDir: string | undefined;
  /**
   * Name V8 records for the script (stack traces, debugger). A benchmark passes a distinct one per load so
   * V8's in-memory compilation cache of this process does not answer instead of the file cache.
   */
  scriptName?: string;
}

function cacheKey(file: string, stat: fs.Stats): string {
  const id = [path.basename(file), stat.size, stat.mtimeMs, process.versions.v8, process.arch].join('|');
  return `${path.basename(file, '.js')}-${createHash('sha256').update(id).digest('hex').slice(0, 16)}.v8cache`;
}

export function loadWithCodeCache<T>(file: string, options: CodeCacheOptions): CodeCacheLoad<T> {
  const started = performance.now();
  const source = fs.readFileSync(file, 'utf8');
  const stat = fs.statSync(file);
  const cacheFile = options.cacheDir ? path.join(options.cacheDir, cacheKey(file, stat)) : undefined;
  let cachedData: Buffer | undefined;
  if (cacheFile) {
    try {
      cachedData = fs.readFileSync(cacheFile);
    } catch {
      // No cache yet (first run of this build): compiled normally below.
    }
  }
  // import() inside the bundle uses Node's own loader where this Node has the option (20.15+); the bundles
  // themselves load their lazy parts with require() so they do not depend on it.
  // `vm.constants` is missing before Node 20.15.
  const importModuleDynamically = vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER;
  const script = new vm.Script(Module.wrap(source), {
    filename: options.scriptName ?? file,
    cachedData,
    ...(importModuleDynamically ? { importModuleDynamically } : {}),
  });
  const cache: CodeCacheLoad<T>['cache'] = !cacheFile ? 'off' : !cachedData ? 'miss' : script.cachedDataRejected ? 'rejected' : 'hit';
  // The same module object `require()` would build, so `require('vscode')` resolves for this extension (VS
  // Code finds the extension from the requiring module's file name) and relative requires find dist/.
  const mod = new Module(file);
  mod.filename = file;
  mod.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(path.dirname(file));
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(mod.exports, mod.exports, Module.createRequire(file), mod, file, path.dirname(file));
  mod.loaded = true;
  const loadMs = performance.now() - started;
  let saved = false;
  return {
    exports: mod.exports as T,
    cache,
    loadMs,
    save() {
      if (!cacheFile || cache === 'hit' || saved) return { written: false };
      saved = true;
      try {
        const data = script.createCachedData();
        fs.mkdirSync(path.dirname(cacheFile), { recursive: true });
        // Another window may load the cache at the same moment: it sees the old file or the whole new one.
        const tmp = `${cacheFile}.${process.pid}.tmp`;
        fs.writeFileSync(tmp, data);
        fs.renameSync(tmp, cacheFile);
        removeStale(path.dirname(cacheFile), path.basename(file, '.js'), path.basename(cacheFile));
        return { written: true };
      } catch (e) {
        return { written: false, error: e instanceof Error ? e.message : String(e) };
      }
    },
  };
}

/** Caches of earlier builds of the same bundle are never read again. */
function removeStale(dir: string, base: string, keep: string): void {
  for (const name of fs.readdirSync(dir)) {
    const ours = name.startsWith(`${base}-`) && (name.endsWith('.v8cache') || name.endsWith('.tmp'));
    if (ours && name !== keep) fs.rmSync(path.join(dir, name), { force: true });
  }
}
