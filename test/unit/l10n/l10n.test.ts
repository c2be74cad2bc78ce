import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { getL10nJson } from '@vscode/l10n-dev';

type Strings = Record<string, string>;
const json = (file: string): any => JSON.parse(readFileSync(file, 'utf8'));
const pkg = json('package.json');
const nlsEn: Strings = json('package.nls.json');
const nlsJa: Strings = json('package.nls.ja.json');
const bundleEn: Strings = json('l10n/bundle.l10n.json');
const bundleJa: Strings = json('l10n/bundle.l10n.ja.json');

/**
 * Folders (and files) whose user-facing strings have been moved to the bundle; the next passes add theirs.
 * src/ai: what the @knowledge chat shows and the tools' errors go through the bundle; the tools' results and
 * input checks stay English on purpose (written for a model, and the same as the MCP server's).
 */
const CONVERTED = [
  'src/features/connection',
  'src/platform',
  'src/features/qna',
  'src/features/answers',
  'src/features/ai',
  'src/ai',
  'src/extension.ts',
  'src/features/knowledgeBase',
  'src/features/entities',
  'src/features/jobs',
];
/** Folders inside a converted one that another pass converts (it removes its folder from here when done). */
const CONVERTED_LATER: string[] = [];

/**
 * Webview page folders whose texts come from the host (WebviewPage.strings, src/webview/shared/strings.ts);
 * each page is added here once it holds no English of its own.
 */
const CONVERTED_PAGES = [
  'src/webview/shared',
  'src/webview/chat',
  'src/webview/citation',
  'src/webview/qaEditor',
  'src/webview/analytics',
  'src/webview/retrieval',
];
/** Key names and other literals a page compares against, never shows. */
const PAGE_NON_TEXT = new Set([
  'Enter',
  'Escape',
  'Tab',
  'ArrowUp',
  'ArrowDown',
  'ArrowLeft',
  'ArrowRight',
  'Home',
  'End',
  'PageUp',
  'PageDown',
  'Backspace',
  'Delete',
  ' ',
]);

/**
 * String literals of a page's source that read as English text: a capitalised word that is not an identifier,
 * an ellipsis, or lowercase words separated by spaces that are not a class list. A line that is meant to hold
 * such a literal (a log message to the host, a CSS selector) says `l10n-ignore`.
 */
export function englishLiterals(source: string): Array<{ line: number; text: string }> {
  const found: Array<{ line: number; text: string }> = [];
  source.split('\n').forEach((line, i) => {
    if (/^\s*(\/\/|\*|\/\*|import )/.test(line) || /l10n-ignore|throw new Error|console\./.test(line)) return;
    for (const m of line.matchAll(/'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|`((?:[^`\\$]|\\.|\$(?!\{))*)`/g)) {
      const text = m[1] ?? m[2] ?? m[3] ?? '';
      if (PAGE_NON_TEXT.has(text)) continue;
      const words = text.split(/\s+/).filter(Boolean);
      const capitalised = /^[A-Z][a-z]+\b/.test(text) && !/^[A-Z][a-zA-Z]+$/.test(text);
      const sentence =
        words.length > 1 &&
        words.some((w) => /^[a-z]{2,}[.,:;!?]?$/.test(w)) &&
        !(words.every((w) => /^[\w-]+$/.test(w)) && words.some((w) => w.includes('-')));
      if (capitalised || sentence || text.includes('…') || /^[A-Z][a-z]+[.!:]?$/.test(text)) found.push({ line: i + 1, text });
    }
  });
  return found;
}

/** {0}, {name}: what vscode.l10n.t fills in. */
const placeholders = (text: string): string[] => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[0]).sort();
/** What must survive a translation untouched: command links, code spans, setting ids. */
const invariants = (text: string): string[] =>
  [...text.matchAll(/\(command:[^)]+\)|`[^`]+`|\bknowledgeDesk\.[\w.]+|https?:\/\/[^\s)]+/g)].map((m) => m[0]).sort();
/** Kana, kanji or Japanese punctuation (「{0}」): a Japanese text, not an English one copied over. */
const isJapanese = (text: string): boolean => /[\u3001-\u30ff\u4e00-\u9fff]/.test(text);
/** Names and formats that read the same in both languages. */
const SAME_IN_BOTH = new Set([
  'Knowledge Desk',
  'Q&A',
  'Q＆A',
  'Knowledge Desk: {0} · {1}',
  '**Knowledge Desk** — {0}: {1}',
  'Knowledge Desk {0} {1}',
  'PDF',
  'Web',
  'web',
  '{0} {1} ({2})',
  'ID',
  'id {0}',
]);

function keysIn(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') {
    const key = /^%([^%\s]+)%$/.exec(value)?.[1];
    if (key) out.push(key);
  } else if (Array.isArray(value)) value.forEach((v) => keysIn(v, out));
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => keysIn(v, out));
  return out;
}

function sourceFiles(dir: string): string[] {
  if (statSync(dir).isFile()) return [dir];
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? sourceFiles(full) : full.endsWith('.ts') ? [full] : [];
  });
}

/** Differences between two string tables that must agree key for key and placeholder for placeholder. */
function mismatches(en: Strings, ja: Strings): string[] {
  return [
    ...Object.keys(en)
      .filter((k) => !(k in ja))
      .map((k) => `only in English: ${k}`),
    ...Object.keys(ja)
      .filter((k) => !(k in en))
      .map((k) => `only in Japanese: ${k}`),
    ...Object.keys(en)
      .filter((k) => k in ja && placeholders(en[k]).join() !== placeholders(ja[k]).join())
      .map((k) => `placeholders differ in ${k}: ${placeholders(en[k]).join() || 'none'} / ${placeholders(ja[k]).join() || 'none'}`),
    ...Object.keys(en)
      .filter((k) => k in ja && invariants(en[k]).join('\n') !== invariants(ja[k]).join('\n'))
      .map((k) => `links, code or setting ids differ in ${k}`),
    ...Object.keys(en)
      .filter((k) => k in ja && !isJapanese(ja[k]) && !SAME_IN_BOTH.has(en[k]) && !/^media\//.test(ja[k]))
      .map((k) => `not translated: ${k}`),
  ];
}

// A user-facing API called with a literal, or a UI field set to one: each must be (vscode.)l10n.t('…').
const HOST_LITERAL_PATTERNS = [
  /\bshow(Information|Warning|Error)Message\(\s*['"`][A-Za-z]/,
  /\bnew vscode\.TreeItem\(\s*['"`][A-Za-z]/,
  // Progress titles and messages, quick pick items, input boxes, dialogs, buttons, tools' invocation messages.
  /\b(title|placeHolder|prompt|detail|tooltip|message|label|description|invocationMessage)\s*:\s*['"`](\$\([\w~-]+\)\s*)?[A-Z][a-z]/,
  /\bmessage\s*:\s*['"`][a-z]+ [a-z]+/,
  /\.(title|placeholder|description|tooltip|text|name)\s*=\s*['"`](\$\([\w~-]+\)\s*)?[A-Z][a-z]/,
  /\bsetStatusBarMessage\(\s*['"`][A-Za-z]/,
  /\bappendMarkdown\(\s*['"`]\**[A-Za-z]/,
  // Markdown and progress in VS Code's chat (stream.markdown, the chat turn's sink).
  /\b(markdown|progress)\(\s*['"`](_|\*\*)?[A-Za-z]/,
  /\bNotConnectedError\(\s*['"`]/,
  /\b(createPanel|showSaveDialog|showOpenDialog)\([^)]*['"`][A-Z][a-z]+ [a-z]/,
  /\bopenLabel\s*:\s*['"`][A-Z][a-z]/,
  /\bappendText\(\s*['"`][A-Za-z]/,
  /\bFileDecoration\([^,]*,\s*['"`][A-Za-z]/,
  // An input box's validateInput answer, and a progress helper's title (jobs: this.progress('…', task)).
  /\?\s*undefined\s*:\s*['"`][A-Z]/,
  // Thrown errors reach the user through the command wrapper's message (toUserFacing).
  /\bthrow new Error\(\s*['"`]["A-Z]/,
];

describe('Localization (package.nls*.json, l10n/bundle.l10n*.json)', () => {
  it('the checks catch what they are for', () => {
    assert.deepEqual(mismatches({ a: 'Hello {0}' }, { a: 'こんにちは {1}' }), ['placeholders differ in a: {0} / {1}']);
    assert.deepEqual(mismatches({ a: 'Hi', b: 'Bye' }, { a: 'やあ', c: 'ね' }), ['only in English: b', 'only in Japanese: c']);
    assert.deepEqual(mismatches({ a: '[Go](command:x.y)' }, { a: '[行く](command:x.z)' }), ['links, code or setting ids differ in a']);
    assert.deepEqual(mismatches({ a: 'Open File' }, { a: 'Open File' }), ['not translated: a']);
    assert.deepEqual(mismatches({ a: 'Show {name}' }, { a: '{name} を表示' }), []);
  });

  it('every user-visible string of package.json is a %key% (node scripts/l10nManifest.mjs --check)', () => {
    const r = spawnSync(process.execPath, ['scripts/l10nManifest.mjs', '--check'], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
  });

  it('every %key% of package.json has its English and Japanese text, and no text is left over', () => {
    const used = new Set(keysIn(pkg));
    assert.ok(used.size > 100, 'the manifest was read');
    assert.deepEqual(
      [...used].filter((k) => !(k in nlsEn)),
      [],
      'a %key% without an entry in package.nls.json',
    );
    assert.deepEqual(
      Object.keys(nlsEn).filter((k) => !used.has(k)),
      [],
      'an entry of package.nls.json no %key% uses',
    );
  });

  it('package.nls.ja.json has the same keys, placeholders, links and code as package.nls.json, in Japanese', () => {
    assert.deepEqual(mismatches(nlsEn, nlsJa), []);
  });

  it('the walkthrough has a Markdown file and an image per step in both languages, and a command button', () => {
    const steps: Array<{ id: string; description: string; media: { markdown: string }; completionEvents: string[] }> =
      pkg.contributes.walkthroughs.flatMap((w: { steps: unknown[] }) => w.steps);
    assert.equal(steps.length, 4);
    for (const step of steps) {
      const key = /^%(.+)%$/.exec(step.media.markdown)![1];
      const files = [nlsEn[key], nlsJa[key]];
      assert.notEqual(files[0], files[1], `${step.id}: one Markdown file per language`);
      for (const file of files) {
        assert.ok(existsSync(file), `${file} exists`);
        const images = [...readFileSync(file, 'utf8').matchAll(/!\[[^\]]+\]\(([^)]+)\)/g)].map((m) => m[1]);
        assert.equal(images.length, 1, `${file}: one image with alt text`);
        assert.ok(existsSync(path.join(path.dirname(file), images[0])), `${file}: ${images[0]} exists`);
      }
      assert.ok(isJapanese(readFileSync(files[1], 'utf8')), `${files[1]} is in Japanese`);
      const description = /^%(.+)%$/.exec(step.description)![1];
      assert.match(nlsEn[description], /\n\[[^\]]+\]\(command:knowledgeDesk\.[\w.]+\)$/, `${step.id}: ends with a button`);
      assert.ok(step.completionEvents.length > 0, `${step.id}: completion events`);
    }
  });

  it('l10n/bundle.l10n.ja.json has the same keys and placeholders as l10n/bundle.l10n.json, in Japanese', () => {
    assert.ok(Object.keys(bundleEn).length > 50, 'the bundle was read');
    assert.equal(pkg.l10n, './l10n');
    assert.deepEqual(mismatches(bundleEn, bundleJa), []);
  });

  it('no English text counts with a "(s)" pseudo-plural: one and many are separate strings', () => {
    const pseudo = /\w\(s\)/;
    const found = [...Object.values(bundleEn), ...Object.values(nlsEn)].filter((text) => pseudo.test(text));
    assert.deepEqual(found, [], 'write "1 item" / "{0} items" as two strings chosen by the count');
  });

  it('l10n/bundle.l10n.json is what `npm run l10n` extracts from the source today', async () => {
    const files = sourceFiles('src').map((f) => ({ extension: '.ts', contents: readFileSync(f, 'utf8') }));
    const extracted = await getL10nJson(files);
    assert.deepEqual(
      Object.keys(extracted).filter((k) => !(k in bundleEn)),
      [],
      'in the source, not in l10n/bundle.l10n.json: run npm run l10n',
    );
    assert.deepEqual(
      Object.keys(bundleEn).filter((k) => !(k in extracted)),
      [],
      'in l10n/bundle.l10n.json, no longer in the source: run npm run l10n',
    );
  });

  it('the host literal check catches what it is for (progress titles, quick pick items, chat Markdown)', () => {
    const caught = (line: string): boolean => HOST_LITERAL_PATTERNS.some((p) => p.test(line));
    for (const line of [
      `{ location: vscode.ProgressLocation.Notification, title: 'Exporting Q&As', cancellable: true },`,
      `progress.report({ message: 'reading existing Q&As…' });`,
      `{ label: 'Off only', value: false },`,
      `{ label: '$(info) No Q&A matches', description: 'Try other words' },`,
      `qp.placeholder = 'Ask a question as a user would';`,
      `stream.markdown('No pages match.');`,
      `sink.markdown('_The service returned an empty answer._');`,
      `sink.progress(\`Searching Q&As (\${region})…\`);`,
      `vscode.window.setStatusBarMessage('Copied the Q&A ID', 3000);`,
      `return { invocationMessage: 'Searching the knowledge base' };`,
      `md.appendMarkdown('**Status**');`,
    ])
      assert.ok(caught(line), line);
    for (const line of [
      `{ label: vscode.l10n.t('Off only'), value: false },`,
      `md.appendMarkdown('**').appendText(item.question);`,
      `sink.markdown(\`\\n\\n**\${l10n.t('Sources')}**\\n\`);`,
      `progress.report({ increment: 10, message: vscode.l10n.t('{0} of {1}', a, b) });`,
    ])
      assert.ok(!caught(line), line);
  });

  it('the converted folders show no literal text without the bundle (messages, picks, inputs, tree items)', () => {
    const later = (f: string): boolean => CONVERTED_LATER.some((dir) => f.startsWith(`${dir}/`));
    const offenders = CONVERTED.flatMap(sourceFiles)
      .filter((f) => !later(f))
      .flatMap((f) =>
        readFileSync(f, 'utf8')
          .split('\n')
          .map((line, i) => [line, i] as const)
          // respondError: the page protocol's own faults (a bug on one side), for the log, never shown as such.
          .filter(([line]) => !/^\s*(\/\/|\*)|respondError\(|l10n-ignore/.test(line) && HOST_LITERAL_PATTERNS.some((p) => p.test(line)))
          .map(([line, i]) => `${f}:${i + 1}: ${line.trim()}`),
      );
    assert.deepEqual(offenders, []);
  });

  it('the English-literal check of webview pages catches what it is for', () => {
    const texts = (src: string): string[] => englishLiterals(src).map((f) => f.text);
    assert.deepEqual(texts(`b.textContent = 'Saved.'; x.title = 'Copy code'; p = 'Loading…'; q = 'no pages matched'`), [
      'Saved.',
      'Copy code',
      'Loading…',
      'no pages matched',
    ]);
    assert.deepEqual(
      texts(`h('div', { class: 'kd-banner kd-error' }); if (e.key === 'Escape') go('aria-label', 'ArrowDown', 'click');`),
      [],
    );
    assert.deepEqual(texts(`log('Request failed'); // l10n-ignore: for the log`), []);
  });

  it('the converted webview pages show no English of their own (their texts come from the host)', () => {
    const offenders = CONVERTED_PAGES.flatMap(sourceFiles).flatMap((f) =>
      englishLiterals(readFileSync(f, 'utf8')).map((l) => `${f}:${l.line}: ${l.text}`),
    );
    assert.deepEqual(offenders, []);
  });
});
