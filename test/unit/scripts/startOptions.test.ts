// npm start's decisions (scripts/startOptions.mjs): its arguments (`npm start -- --locale ja` failed with
// ERR_PARSE_ARGS_UNKNOWN_OPTION), the port it comes back to (the browser keeps chat history per origin), and the
// language-pack registration it shares with the test host. Real sockets on 127.0.0.1 and a real temporary folder.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { choosePort, freePort, isPortFree, parseStartArgs, registerLocale } from '../../../scripts/startOptions.mjs';

describe('npm start: arguments, port and display language (scripts/startOptions.mjs)', () => {
  let dir: string;
  const servers: net.Server[] = [];
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kd-start-'));
  });
  afterEach(async () => {
    for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const listen = async (port = 0): Promise<number> => {
    const s = net.createServer();
    servers.push(s);
    await new Promise<void>((resolve) => s.listen(port, '127.0.0.1', resolve));
    return (s.address() as net.AddressInfo).port;
  };

  it('takes --locale, --port and --fresh, and rejects what it does not know with the usage', () => {
    assert.deepEqual(parseStartArgs(['--locale', 'ja']), { fresh: false, locale: 'ja' });
    assert.deepEqual(parseStartArgs(['--locale=JA', '--port', '8123', '--fresh']), { fresh: true, locale: 'ja', port: 8123 });
    assert.deepEqual(parseStartArgs([]), { fresh: false });
    assert.throws(() => parseStartArgs(['--lang', 'ja']), /Unknown option '--lang'[\s\S]*usage: npm start/);
    assert.throws(() => parseStartArgs(['--port', '70000']), /--port: "70000" is not a port/);
    assert.throws(() => parseStartArgs(['--locale', '../x']), /--locale: "..\/x" is not a language tag/);
  });

  it('remembers the first port in .dev/port and comes back to it while it is free', async () => {
    const file = path.join(dir, 'port');
    const first = await choosePort(file, undefined);
    assert.equal(first.remembered, true);
    assert.equal(fs.readFileSync(file, 'utf8').trim(), String(first.port));
    const again = await choosePort(file, undefined);
    assert.deepEqual(again, { port: first.port, reused: true, remembered: true });
  });

  it('a remembered port that is busy: another one for this run, and the remembered one is kept', async () => {
    const file = path.join(dir, 'port');
    const busy = await listen();
    fs.writeFileSync(file, `${busy}\n`);
    assert.equal(await isPortFree(busy), false);
    const chosen = await choosePort(file, undefined);
    assert.notEqual(chosen.port, busy);
    assert.equal(chosen.busy, busy);
    assert.equal(chosen.reused, false);
    assert.equal(fs.readFileSync(file, 'utf8').trim(), String(busy), 'the port the browser state belongs to stays remembered');
  });

  it('--port N is used and remembered; a broken .dev/port is replaced', async () => {
    const file = path.join(dir, 'port');
    const wanted = await freePort();
    assert.deepEqual(await choosePort(file, wanted), { port: wanted, reused: false, remembered: true });
    assert.equal((await choosePort(file, undefined)).port, wanted);
    fs.writeFileSync(file, 'not a port');
    const fresh = await choosePort(file, undefined);
    assert.equal(fs.readFileSync(file, 'utf8').trim(), String(fresh.port));
  });

  it('--locale ja registers a stub language pack (no download), leaves a real one alone, and English needs none', () => {
    const userData = path.join(dir, 'user-data');
    assert.equal(registerLocale(userData, undefined), 'none');
    assert.equal(registerLocale(userData, 'en'), 'none');
    assert.equal(fs.existsSync(path.join(userData, 'languagepacks.json')), false);
    assert.equal(registerLocale(userData, 'ja'), 'stub');
    const packs = JSON.parse(fs.readFileSync(path.join(userData, 'languagepacks.json'), 'utf8'));
    assert.equal(packs.ja.hash, 'kd-stub');
    assert.deepEqual(JSON.parse(fs.readFileSync(packs.ja.translations.vscode, 'utf8')), { contents: {} });
    assert.equal(registerLocale(userData, 'ja'), 'stub', 'a second run rewrites its own stub');
    const real = {
      ja: { hash: 'abc', extensions: [{ extensionIdentifier: { id: 'ms-ceintl.vscode-language-pack-ja' } }], translations: {} },
    };
    fs.writeFileSync(path.join(userData, 'languagepacks.json'), JSON.stringify(real));
    assert.equal(registerLocale(userData, 'ja'), 'kept');
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(userData, 'languagepacks.json'), 'utf8')), real);
  });
});
