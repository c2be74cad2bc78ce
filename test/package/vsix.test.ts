// `npm run package` and the .vsix it writes: what a user installs. Not among the unit tests (test/unit): packaging
// rebuilds dist/ for production, which the integration tests must not get. `npm test` runs it after them
// (scripts/test.mjs, step "package"); alone: `KD_SPEC=test/package/vsix.test.ts npx mocha`.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import * as yauzl from 'yauzl';

const root = path.resolve(__dirname, '../..');
const VSIX = path.join(root, 'knowledge-desk.vsix');
/** The size the README promises ("under N MB"); the test reads the README's number and holds the package to it. */
const README = readFileSync(path.join(root, 'README.md'), 'utf8');

/** Every file in the .vsix with its content; `extension/…` is what lands in the extensions folder. */
async function listVsix(file: string): Promise<Map<string, Buffer>> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true }, (err, z) => (err ? reject(err) : resolve(z))),
  );
  const files = new Map<string, Buffer>();
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      zip.openReadStream(entry, (err, stream) => {
        if (err) return reject(err);
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          files.set(entry.fileName, Buffer.concat(chunks));
          zip.readEntry();
        });
        stream.on('error', reject);
      });
    });
    zip.on('end', resolve);
    zip.on('error', reject);
    zip.readEntry();
  });
  return files;
}

/** What .vscodeignore lets in: the manifest and its texts, the README, CHANGELOG and LICENSE, dist/, media/, l10n/, schemas/. */
const ALLOWED = [
  /^extension\/package(\.nls(\.[a-z-]+)?)?\.json$/,
  /^extension\/(readme\.md|changelog\.md|LICENSE\.txt)$/,
  /^extension\/dist\//,
  /^extension\/media\//,
  /^extension\/schemas\/[a-z]+\.schema\.json$/,
  /^extension\/l10n\/bundle\.l10n(\.[a-z-]+)?\.json$/,
  /^(\[Content_Types\]\.xml|extension\.vsixmanifest)$/,
];

describe('npm run package: the .vsix', function () {
  // The production build and vsce take seconds alone, minutes on a busy machine.
  this.timeout(600_000);
  let output = '';
  let files = new Map<string, Buffer>();

  before(function () {
    this.timeout(600_000);
    const r = spawnSync('npm', ['run', 'package'], { cwd: root, encoding: 'utf8', timeout: 540_000 });
    output = `${r.stdout ?? ''}${r.stderr ?? ''}`;
    assert.equal(r.status, 0, `npm run package failed:\n${output.slice(-3000)}`);
  });

  before(async () => {
    files = await listVsix(VSIX);
  });

  it('packages without warnings', () => {
    assert.doesNotMatch(output, /\bWARNING\b|\bERROR\b/, output.slice(-3000));
    assert.match(output, /DONE\s+Packaged: .*knowledge-desk\.vsix/);
  });

  it('holds what the extension runs: every bundle, the webview pages, pdfjs data, translations, icon', () => {
    const required = [
      'extension/package.json',
      'extension/package.nls.json',
      'extension/package.nls.ja.json',
      'extension/l10n/bundle.l10n.ja.json',
      'extension/readme.md',
      'extension/LICENSE.txt',
      'extension/media/icon.png',
      // The knowledge test format's schema, which package.json contributes through yamlValidation.
      'extension/schemas/kdtest.schema.json',
      ...['extension', 'main', 'local', 'undici', 'mcp', 'cli', 'extractWorker', 'xlsxReader'].map((b) => `extension/dist/${b}.js`),
      ...['analytics', 'chat', 'citation', 'qaEditor', 'retrieval'].map((p) => `extension/dist/webview/${p}.js`),
    ];
    for (const f of required) assert.ok(files.has(f), `${f} missing from the .vsix`);
    assert.ok(
      [...files.keys()].some((f) => f.startsWith('extension/dist/pdfjs/cmaps/')),
      'pdfjs character maps',
    );
    // Every file the walkthrough's Markdown names is there (package.json points at media/walkthrough/*.md).
    const manifest = JSON.parse(files.get('extension/package.json')!.toString('utf8')) as { main: string; icon: string };
    assert.ok(files.has(`extension/${manifest.main.replace(/^\.\//, '')}`), `main ${manifest.main}`);
    assert.ok(files.has(`extension/${manifest.icon}`), `icon ${manifest.icon}`);
  });

  it('holds nothing else: no sources, tests, source maps, samples or dependencies', () => {
    const stray = [...files.keys()].filter((f) => !ALLOWED.some((re) => re.test(f)));
    assert.deepEqual(stray, []);
    const dev = [...files.keys()].filter((f) => /\.(map|ts|tsx|mts|cts)$|\/(test|out|src|samples|node_modules)\//.test(f));
    assert.deepEqual(dev, []);
    const mapped = [...files.entries()]
      .filter(([f, content]) => f.endsWith('.js') && /[#@] sourceMappingURL=/.test(content.toString('utf8')))
      .map(([f]) => f);
    assert.deepEqual(mapped, [], 'bundles that point at a source map');
    const manifest = JSON.parse(files.get('extension/package.json')!.toString('utf8')) as { devDependencies?: unknown };
    assert.ok(manifest.devDependencies, 'the manifest is the project’s own (vsce keeps it whole)');
  });

  it('never holds the test-only echo model (test/host/echoModel, the current lane’s fake language model)', () => {
    const echo = [...files.entries()]
      .filter(([f, content]) => /echoModel|kd-echo/i.test(f) || /kd-echo|languageModelChatProviders/.test(content.toString('utf8')))
      .map(([f]) => f);
    assert.deepEqual(echo, []);
    assert.ok(
      readFileSync(path.join(root, 'test/host/echoModel/package.json'), 'utf8').includes('"kd-echo"'),
      'the model this test looks for',
    );
  });

  it('holds no test code: no drive or snapshot handlers, test routes, test headers or test API (src/testBuild.d.ts)', () => {
    // Each marker is written in the sources of the test build's code (checked below), so a rename cannot make
    // this test pass by looking for a string nothing contains.
    const markers: Array<[marker: RegExp, source: string]> = [
      [/['"`]drive['"`]/, 'src/webview/chat/drive.ts'],
      [/['"`]snapshot['"`]/, 'src/webview/chat/drive.ts'],
      // A key of the chat's drive request: the host's protocol names it unquoted.
      [/\bclickCitation\b/, 'src/features/answers/chat/protocol.ts'],
      [/\/_local\/(faults|echo|whoami|processing|stream-delay)\b/, 'src/local/testKit.ts'],
      [/x-local-stream-delay-ms/i, 'src/local/testKit.ts'],
      [/x-kd-commit-seq/, 'src/local/http/commitSeq.ts'],
      [/__KD_TEST__/, 'src/testBuild.d.ts'],
      // The test API (src/testApi.ts) and the probe it records the product's events in (src/testProbe.ts).
      [/\bsetUserInput\b/, 'src/testApi.ts'],
      [/\bsetStreamDelay\b/, 'src/testApi.ts'],
      [/\bcitationsOpened\b/, 'src/testProbe.ts'],
    ];
    for (const [marker, source] of markers) assert.match(readFileSync(path.join(root, source), 'utf8'), marker, source);
    const bundles = [...files.entries()].filter(([f]) => /^extension\/dist\/(webview\/)?[^/]+\.js$/.test(f));
    assert.ok(bundles.length >= 12, `bundles: ${bundles.map(([f]) => f).join(', ')}`);
    const found = bundles.flatMap(([f, content]) => {
      const text = content.toString('utf8');
      return markers.filter(([marker]) => marker.test(text)).map(([marker]) => `${f}: ${marker}`);
    });
    assert.deepEqual(found, []);
  });

  it('is under the size the README states', () => {
    const stated = /\.vsix[^.\n]*?\bunder (\d+) MB\b/.exec(README);
    assert.ok(stated, 'the README says how large the .vsix is ("… .vsix … under N MB")');
    const limit = Number(stated[1]) * 1024 * 1024;
    const size = statSync(VSIX).size;
    assert.ok(size < limit, `the .vsix is ${(size / 1024 / 1024).toFixed(2)} MB, over the README's ${stated[1]} MB`);
  });

  it('ships a README whose images and links work from the installed copy', () => {
    const readme = files.get('extension/readme.md')!.toString('utf8');
    // vsce runs with --no-rewrite-relative-links (no repository): the README is packed as written, so each relative
    // target must be in the package itself, and the documentation that is not packed is named, not linked.
    const targets = [...readme.matchAll(/!?\[[^\]]*\]\(([^)\s]+)[^)]*\)|<img[^>]+src="([^"]+)"/g)].map((m) => m[1] ?? m[2]);
    assert.ok(targets.length > 0);
    const relative = targets.filter((t) => !/^(https:\/\/|mailto:|#)/.test(t));
    const missing = relative.filter((t) => !files.has(`extension/${path.posix.normalize(t.split('#')[0])}`));
    assert.deepEqual(missing, [], 'relative links and images that are not in the .vsix');
    const images = [...readme.matchAll(/!\[[^\]]*\]\(([^)\s]+)/g)].map((m) => m[1]);
    assert.ok(images.length >= 4, `screenshots in the README: ${images.join(', ')}`);
    for (const img of images) assert.match(img, /^media\/screenshots\/[\w-]+\.(png|jpg)$/, 'screenshots live in media/screenshots');
    assert.doesNotMatch(readme, /\]\(http:\/\//, 'plain-http links');
  });
});
