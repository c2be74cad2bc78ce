import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { CommandIds, ContextKeys, ViewIds, WALKTHROUGH_ID } from '../../../src/platform/commandIds';
import { readManifest } from '../support/manifest';

interface Contributes {
  commands: Array<{ command: string; title: string }>;
  menus: Record<string, Array<{ command?: string; submenu?: string; when?: string }>>;
  keybindings?: Array<{ command: string; when?: string }>;
  views: Record<string, Array<{ id: string }>>;
  viewsWelcome?: Array<{ view: string; contents: string; when?: string }>;
  languageModelTools?: Array<{ name: string; when?: string }>;
  walkthroughs?: Array<{ id: string; steps: Array<{ id: string; description: string; completionEvents?: string[] }> }>;
}

/** Every command id of the module, flattened. */
function allCommandIds(): string[] {
  const out: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === 'string') out.push(value);
    else for (const v of Object.values(value as Record<string, unknown>)) walk(v);
  };
  walk(CommandIds);
  return out;
}

const pkg = readManifest() as { contributes: Contributes };
const c = pkg.contributes;
const known = new Set<string>(allCommandIds());

describe('Command ids and context keys (src/platform/commandIds.ts against package.json)', () => {
  it('every command id in the module is contributed, and every contributed command is in the module', () => {
    const contributed = c.commands.map((x) => x.command);
    assert.deepEqual(
      allCommandIds().filter((id) => !contributed.includes(id)),
      [],
      'in the module, not in package.json',
    );
    assert.deepEqual(
      contributed.filter((id) => !known.has(id)),
      [],
      'in package.json, not in the module',
    );
    assert.equal(new Set(contributed).size, contributed.length, 'a command contributed twice');
    assert.equal(known.size, allCommandIds().length, 'an id listed twice in the module');
  });

  it('the extension names its commands through the module, never as strings of its own', () => {
    const sources = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => {
        const full = path.join(dir, name);
        return statSync(full).isDirectory() ? sources(full) : full.endsWith('.ts') ? [full] : [];
      });
    // Comments may name a command; code may not.
    const code = (f: string): string =>
      readFileSync(f, 'utf8')
        .split('\n')
        .filter((line) => !/^\s*(\/\/|\/?\*)/.test(line))
        .join('\n');
    const hostFiles = [...sources('src/features'), ...sources('src/platform'), 'src/container.ts', 'src/extension.ts'];
    const written = hostFiles
      .filter((f) => !f.endsWith(path.join('platform', 'commandIds.ts')))
      .flatMap((f) =>
        [...code(f).matchAll(/['"`](knowledgeDesk\.[\w.]+)['"`]/g)].filter((m) => known.has(m[1])).map((m) => `${f}: ${m[1]}`),
      );
    assert.deepEqual(written, []);
  });

  it('menus, keybindings and welcome links name only known commands', () => {
    const used = [
      ...Object.entries(c.menus).flatMap(([menu, items]) => items.filter((i) => i.command).map((i) => [menu, i.command!])),
      ...(c.keybindings ?? []).map((k) => ['keybindings', k.command]),
      ...(c.viewsWelcome ?? []).flatMap((w) =>
        [...w.contents.matchAll(/\(command:(knowledgeDesk\.[\w.]+)/g)].map((m) => [`welcome ${w.view}`, m[1]]),
      ),
      ...(c.walkthroughs ?? []).flatMap((w) =>
        w.steps.flatMap((s) => [...s.description.matchAll(/\(command:([\w.]+)/g)].map((m) => [`walkthrough step ${s.id}`, m[1]])),
      ),
    ];
    assert.ok(used.length > 50, 'the menus were read');
    assert.deepEqual(
      used.filter(([, id]) => !known.has(id)),
      [],
    );
  });

  it('the welcome views open the contributed walkthrough, and no other workbench command', () => {
    const links = (c.viewsWelcome ?? []).flatMap((w) =>
      [...w.contents.matchAll(/\(command:(?!knowledgeDesk\.)([^)]+)\)/g)].map((m) => m[1]),
    );
    assert.ok(links.length >= 1, 'a welcome view links to the walkthrough');
    const [publisher, name] = [(pkg as unknown as { publisher: string }).publisher, (pkg as unknown as { name: string }).name];
    for (const link of links) {
      const [command, args] = link.split('?');
      assert.equal(command, 'workbench.action.openWalkthrough');
      const [id] = JSON.parse(decodeURIComponent(args)) as [string];
      assert.equal(id, WALKTHROUGH_ID);
      assert.equal(id, `${publisher}.${name}#${c.walkthroughs?.[0]?.id}`);
    }
  });

  it('the tree views are the ones contributed', () => {
    const views = Object.values(c.views)
      .flat()
      .map((v) => v.id);
    for (const id of Object.values(ViewIds)) assert.ok(views.includes(id), `${id} is not a contributed view`);
  });

  it('`when` clauses use only known context keys, and every context key is used', () => {
    const clauses = [
      ...Object.values(c.menus)
        .flat()
        .map((i) => i.when),
      ...(c.keybindings ?? []).map((k) => k.when),
      ...(c.viewsWelcome ?? []).map((w) => w.when),
      ...(c.languageModelTools ?? []).map((t) => t.when),
      ...(c.walkthroughs ?? []).flatMap((w) =>
        w.steps.flatMap((s) =>
          (s.completionEvents ?? []).filter((e) => e.startsWith('onContext:')).map((e) => e.slice('onContext:'.length)),
        ),
      ),
    ].filter((w): w is string => !!w);
    const named = new Set(clauses.flatMap((w) => [...w.matchAll(/\bknowledgeDesk\.[\w.]+/g)].map((m) => m[0])));
    const keys = new Set<string>(Object.values(ContextKeys));
    const views = new Set<string>(Object.values(ViewIds));
    assert.deepEqual(
      [...named].filter((k) => !keys.has(k) && !views.has(k)),
      [],
      'unknown context key in a when clause',
    );
    const unused = [...keys].filter((k) => !named.has(k) && k !== ContextKeys.region && k !== ContextKeys.entitiesHasNextPart);
    assert.deepEqual(unused, [], 'a context key no when clause reads');
  });

  it('names say what the commands do', () => {
    const title = (id: string) => c.commands.find((x) => x.command === id)?.title;
    assert.match(title(CommandIds.qna.filterText)!, /^Filter Q＆As by Text/);
    assert.match(title(CommandIds.qna.importFile)!, /CSV or Excel/);
    assert.match(title(CommandIds.answers.askAboutFolderOrDocument)!, /Folder or Document/);
  });
});
