// Names with bidi controls or zero-width characters (issue 23, "the low ones"): the local service refuses them
// with a 400 in its error shape for every way a node gets a name, and the tree shows names from a real service
// with those characters escaped.
import assert from 'node:assert/strict';
import { BadRequestError, type ApiError } from '../../../../src/api/errors';
import { escapeInvisible } from '../../../../src/core/visibleText';
import { startTestService, type TestService } from '../../support/localService';

const text = (s: string) => ({ data: s, contentType: 'text/plain' });
const INVISIBLE = ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069', '\u200e', '\u200f', '\u061c'];
const ZERO_WIDTH = ['\u200b', '\u200c', '\u200d', '\u2060', '\ufeff'];

describe('Local service: names with bidi or zero-width characters', () => {
  let t: TestService;
  before(async () => (t = await startTestService()));
  after(() => t.stop());

  const refused = async (what: string, attempt: () => Promise<unknown>, code: string, field = 'name'): Promise<void> => {
    const error = await attempt().then(
      () => assert.fail(`${what} was accepted`),
      (e: unknown) => e as ApiError,
    );
    assert.ok(error instanceof BadRequestError, `${what}: ${error}`);
    assert.equal(error.field, field, what);
    const body = error.body as { errors: string; code: number };
    assert.equal(body.code, 400);
    assert.match(body.errors, new RegExp(`contains ${code.replace('+', '\\+')}, an invisible direction or zero-width character`), what);
    // The message itself shows the character escaped, so it cannot reorder the text it is shown in.
    assert.doesNotMatch(body.errors, /[\u061c\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]/, what);
  };

  it('refuses them in uploads, new folders, renames of folders and documents, with a 400 naming the character', async () => {
    const client = t.client();
    for (const c of [...INVISIBLE, ...ZERO_WIDTH]) {
      const code = `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
      await refused(`folder ${code}`, () => client.folders.create({ name: `evil${c}folder` }), code);
    }
    await refused('upload', () => client.kbNodes.upload({ file: text('x'), fileName: 'evil\u202etxt.exe' }), 'U+202E', 'fileName');
    const folder = await client.folders.create({ name: 'Plain' });
    await refused('folder rename', () => client.folders.rename(folder.id, 'Pl\u200bain'), 'U+200B');
    const [doc] = await client.kbNodes.upload({ file: text('A plain document.'), fileName: 'plain.txt' });
    await refused('document rename', () => client.kbNodes.update(doc.id, { name: 'plain\u2066.txt' }), 'U+2066');
    // Right-to-left scripts themselves stay allowed: only the invisible controls are refused.
    assert.equal((await client.folders.create({ name: 'تقارير' })).name, 'تقارير');
    assert.equal((await client.kbNodes.get(folder.id)).name, 'Plain');
  });

  it('escapes them for display (tree labels of names from a real service)', () => {
    assert.equal(escapeInvisible('evil\u202etxt.exe'), 'evil\\u202Etxt.exe');
    assert.equal(escapeInvisible('a\u200bb\ufeffc\u061c'), 'a\\u200Bb\\uFEFFc\\u061C');
    assert.equal(escapeInvisible('経費 report (2).pdf'), '経費 report (2).pdf');
  });
});
