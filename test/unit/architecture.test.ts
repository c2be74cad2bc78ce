import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? files(full) : full.endsWith('.ts') ? [full] : [];
  });
}

describe('Architecture rules', () => {
  it('src/api, src/core, src/local, src/ai, src/mcp, src/cli and the local service supervisor never import vscode (they run in plain Node)', () => {
    const offenders = ['src/api', 'src/core', 'src/local', 'src/ai', 'src/mcp', 'src/cli', 'src/platform/connection/process']
      .flatMap(files)
      .filter((f) => /from\s+['"]vscode['"]|require\(\s*['"]vscode['"]\s*\)|import\(\s*['"]vscode['"]\s*\)/.test(readFileSync(f, 'utf8')));
    assert.deepEqual(offenders, []);
  });

  it('src/core does no I/O, except the readers of a file or folder the user chose (docs/architecture.md)', () => {
    // Network, processes and workers never; the file system only in these files, each given a path by its caller.
    const allowed = [
      'src/core/qaFile/csvReader.ts',
      'src/core/qaFile/csvScan.ts',
      'src/core/qaFile/readQaFile.ts',
      'src/core/qaFile/xlsxReader.ts',
      'src/core/zipFolder.ts',
    ];
    const fileIo = /from\s+['"](node:)?fs(\/promises)?['"]|\.readFile\(/;
    const otherIo = /from\s+['"](node:)?(net|http|https|http2|tls|dgram|child_process|worker_threads)['"]|from\s+['"]undici['"]|\bfetch\(/;
    const sources = files('src/core').map((f) => [f.split(path.sep).join('/'), readFileSync(f, 'utf8')] as const);
    assert.deepEqual(
      sources.filter(([, text]) => otherIo.test(text)).map(([f]) => f),
      [],
    );
    assert.deepEqual(
      sources
        .filter(([, text]) => fileIo.test(text))
        .map(([f]) => f)
        .sort(),
      allowed,
    );
  });

  it('has no import cycles, type imports and import() included', () => {
    const sources = files('src');
    const known = new Set(sources);
    const specifier = /(?:\bfrom\s+|\bimport\s*\(\s*|\brequire\(\s*)['"](\.[^'"]+)['"]/g;
    const graph = new Map(
      sources.map((f) => {
        const targets = [...readFileSync(f, 'utf8').matchAll(specifier)].map((m) => path.join(path.dirname(f), m[1]) + '.ts');
        return [f, targets.filter((t) => known.has(t))] as const;
      }),
    );
    // Depth-first search; a module met again while still on the path closes a cycle.
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (f: string, trail: string[]): void => {
      state.set(f, 'open');
      for (const t of graph.get(f)!) {
        if (state.get(t) === 'open') cycles.push([...trail.slice(trail.indexOf(t)), t].join(' → '));
        else if (!state.has(t)) visit(t, [...trail, t]);
      }
      state.set(f, 'done');
    };
    for (const f of sources) if (!state.has(f)) visit(f, [f]);
    assert.deepEqual(cycles, []);
  });

  it('has no barrel files and uses camelCase file names', () => {
    const all = files('src');
    assert.deepEqual(
      all.filter((f) => path.basename(f) === 'index.ts'),
      [],
    );
    assert.deepEqual(
      all.filter((f) => !/^[a-z][A-Za-z0-9]*(\.d)?\.ts$/.test(path.basename(f))),
      [],
    );
  });

  it('points only to documents in the repository (no spec folder, decisions file or numbered documents from outside)', () => {
    const texts = [
      ...files('src'),
      'README.md',
      'CONTRIBUTING.md',
      'package.json',
      'package.nls.json',
      'package.nls.ja.json',
      'docs/api.md',
      'docs/architecture.md',
      'docs/local-service.md',
    ];
    const outside = /shared\/(spec|notes)|decisions\.md|\bdocuments? [12]\b|documents 1 and 2|\bthe contract\b|Beyond the two documents/i;
    const offenders = texts.flatMap((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .flatMap((line, i) => (outside.test(line) ? [`${f}:${i + 1}: ${line.trim().slice(0, 120)}`] : [])),
    );
    assert.deepEqual(offenders, []);
  });

  it('keeps source files small (at most 300 lines)', () => {
    const lines = (text: string): number => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    const big = files('src')
      .map((f) => [f, lines(readFileSync(f, 'utf8'))] as const)
      .filter(([, n]) => n > 300);
    assert.deepEqual(big, []);
  });

  it('the shared tree paging model and the command ids run in plain Node (no vscode)', () => {
    const pure = ['src/platform/tree/pagedListing.ts', 'src/platform/tree/pagingElements.ts', 'src/platform/commandIds.ts'];
    assert.deepEqual(
      pure.filter((f) => /from\s+['"]vscode['"]/.test(readFileSync(f, 'utf8'))),
      [],
    );
  });

  it('platform and the container import no feature, and features do not import each other', () => {
    const importsOf = (f: string) =>
      [...readFileSync(f, 'utf8').matchAll(/from\s+['"](\.[^'"]+)['"]/g)].map((m) =>
        path.relative('src', path.resolve(path.dirname(f), m[1])),
      );
    assert.deepEqual(
      [...files('src/platform'), 'src/container.ts'].filter((f) => importsOf(f).some((i) => i.startsWith('features'))),
      [],
    );
    const crossing = files('src/features').flatMap((f) => {
      const own = f.split(path.sep)[2];
      return importsOf(f)
        .filter((i) => i.startsWith('features') && i.split(path.sep)[1] !== own)
        .map((i) => `${f} -> ${i}`);
    });
    assert.deepEqual(crossing, []);
  });
});
