// Titles of commands, views and view containers show in the workbench's menus (view title "…" menus, context
// menus, the Views menu of a container), where VS Code reads an ASCII `&` as a mnemonic marker and drops it:
// "Import Q&As" read "Import QAs" (issue 22). Read in microsoft/vscode (1.100):
// - src/vs/base/browser/ui/menu/menu.ts: MENU_MNEMONIC_REGEX `/\(&([^\s&])\)|(^|[^&])&([^\s&])/` and
//   cleanMnemonic() remove a single `&`; a label without a match gets `label.replace(/&&/g, '&')`, so `&&` shows `&`.
// - src/vs/workbench/contrib/quickaccess/browser/commandsQuickAccess.ts: the palette's label is
//   stripIcons(title), nothing else, so `&&` would show as "Q&&A" there.
// - src/vs/platform/actions/browser/menuEntryActionViewItem.ts: an icon button's hover is `tooltip || label`, raw:
//   "Search Q&&A…" on the Q&A view's toolbar.
// - A command has one title for every place (menus cannot give it another, microsoft/vscode#9318); a second
//   command per menu, titled with `&&` and hidden from the palette, would double 20 commands and still leave the
//   toolbar hovers wrong.
// So the manifest writes U+FF06 FULLWIDTH AMPERSAND ("Q＆A"): no mnemonic in any of those places, the same text in
// the palette, menus and hovers, and the usual way Japanese text writes Q＆A. Strings shown elsewhere (keywords,
// descriptions, walkthrough texts, notifications through vscode.l10n.t) keep the ASCII `&`.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

type Strings = Record<string, string>;
const json = (file: string): any => JSON.parse(readFileSync(file, 'utf8'));
const pkg = json('package.json');
const NLS_FILES = ['package.nls.json', 'package.nls.ja.json'];

/** What the workbench's menu widget shows for a label (menu.ts: cleanMnemonic, then `&&` → `&`). */
function menuText(label: string): string {
  const mnemonic = /\(&([^\s&])\)|(^|[^&])&([^\s&])/;
  const m = mnemonic.exec(label);
  if (m) return label.replace(mnemonic, m[1] ? '' : '$2$3').trim();
  return label.replace(/&&/g, '&');
}

/** Every manifest string that the workbench shows as a menu item or a view's name, with where it is used. */
function menuTitles(): Array<{ where: string; value: string }> {
  const c = pkg.contributes;
  const out: Array<{ where: string; value: string }> = [];
  for (const cmd of c.commands) {
    for (const field of ['title', 'shortTitle', 'category'] as const) {
      if (typeof cmd[field] === 'string') out.push({ where: `${cmd.command}.${field}`, value: cmd[field] });
    }
  }
  for (const views of Object.values<Array<{ id: string; name: string }>>(c.views)) {
    for (const view of views) out.push({ where: `view ${view.id}`, value: view.name });
  }
  for (const containers of Object.values<Array<{ id: string; title: string }>>(c.viewsContainers)) {
    for (const container of containers) out.push({ where: `view container ${container.id}`, value: container.title });
  }
  for (const submenu of c.submenus ?? []) out.push({ where: `submenu ${submenu.id}`, value: submenu.label });
  return out;
}

/** The text of a manifest value in one nls file (a %key% resolved, a literal as it is). */
function resolve(value: string, nls: Strings): string {
  const key = /^%(.+)%$/.exec(value)?.[1];
  return key ? nls[key] : value;
}

describe('Menu titles: an "&" in a command or view title shows in menus and in the palette', () => {
  it('the premise: a menu drops a single "&" and shows "&&" as "&"; "＆" is left alone', () => {
    assert.equal(menuText('Import Q&As from CSV or Excel…'), 'Import QAs from CSV or Excel…');
    assert.equal(menuText('Upload Q&A File to Service…'), 'Upload QA File to Service…');
    assert.equal(menuText('Import Q&&As'), 'Import Q&As');
    assert.equal(menuText('Import Q＆As'), 'Import Q＆As');
  });

  for (const file of NLS_FILES) {
    it(`${file}: no command, view or submenu title holds an ASCII "&" (written "＆")`, () => {
      const nls: Strings = json(file);
      const titles = menuTitles();
      assert.ok(titles.length > 80, 'the manifest was read');
      const wrong = titles
        .map(({ where, value }) => ({ where, text: resolve(value, nls) }))
        .filter(({ text }) => text.includes('&'))
        .map(({ where, text }) => `${where}: "${text}" shows as "${menuText(text)}" in menus`);
      assert.deepEqual(wrong, []);
    });
  }

  it('the Q＆A titles read the same in the palette and in menus, in English and Japanese', () => {
    const en: Strings = json('package.nls.json');
    const ja: Strings = json('package.nls.ja.json');
    const title = (id: string, nls: Strings): string =>
      resolve(pkg.contributes.commands.find((c: { command: string }) => c.command === id).title, nls);
    assert.equal(menuText(title('knowledgeDesk.qna.importFile', en)), 'Import Q＆As from CSV or Excel…');
    assert.equal(menuText(title('knowledgeDesk.qna.uploadFile', en)), 'Upload Q＆A File to Service…');
    assert.equal(menuText(title('knowledgeDesk.qna.importFile', ja)), 'CSV または Excel から Q＆A をインポート…');
    assert.equal(menuText(title('knowledgeDesk.qna.uploadFile', ja)), 'Q＆A ファイルをサービスにアップロード…');
  });
});
