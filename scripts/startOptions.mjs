// The parts of `npm start` (scripts/start.mjs) and the test host (test/host/driver.mjs) that decide things: the
// command line, the port, and the display-language registration. Small and free of side effects beyond the
// folders they are given, so test/unit/scripts/startOptions.test.ts runs them in plain Node.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { parseArgs } from 'node:util';

export const START_USAGE = 'usage: npm start [-- --port N] [-- --locale ja] [-- --fresh]';

/**
 * `npm start -- …` arguments: { port?: number, locale?: string, fresh: boolean }. Throws with the usage on an
 * unknown option or a bad value (a port outside 1–65535, a locale that is not a language tag such as ja or pt-br).
 */
export function parseStartArgs(argv) {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { port: { type: 'string' }, locale: { type: 'string' }, fresh: { type: 'boolean', default: false } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new Error(`${error.message}\n${START_USAGE}`);
  }
  const out = { fresh: values.fresh };
  if (values.port !== undefined) {
    const port = Number(values.port);
    if (!Number.isInteger(port) || port < 1 || port > 65535)
      throw new Error(`--port: "${values.port}" is not a port (1-65535)\n${START_USAGE}`);
    out.port = port;
  }
  if (values.locale !== undefined) {
    const locale = values.locale.toLowerCase();
    if (!/^[a-z]{2,3}(-[a-z0-9]{2,8})*$/.test(locale))
      throw new Error(`--locale: "${values.locale}" is not a language tag such as ja\n${START_USAGE}`);
    out.locale = locale;
  }
  return out;
}

/** True when nothing listens on 127.0.0.1:port (a listen there succeeds). */
export function isPortFree(port) {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

/** A port the system hands out as free on 127.0.0.1. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const p = s.address().port;
      s.close(() => resolve(p));
    });
  });
}

/**
 * The port for this run, and whether to remember it in `file` (.dev/port). The browser keeps the workbench's state
 * (chat history, open editors, the walkthrough's progress) per origin, so a new port looks like a new machine:
 * - `--port N` is used and remembered;
 * - otherwise the remembered port, when it is free;
 * - otherwise a free one, remembered only when none was before (a remembered port that is busy now, say by
 *   another `npm start`, stays the one to come back to).
 * Returns { port, reused, remembered, busy } (busy: the remembered port that could not be used).
 */
export async function choosePort(file, requested, probes = { isPortFree, freePort }) {
  const saved = readPort(file);
  if (requested !== undefined) {
    writePort(file, requested);
    return { port: requested, reused: requested === saved, remembered: true };
  }
  if (saved !== undefined && (await probes.isPortFree(saved))) return { port: saved, reused: true, remembered: true };
  const port = await probes.freePort();
  if (saved === undefined) writePort(file, port);
  return { port, reused: false, remembered: saved === undefined, busy: saved };
}

function readPort(file) {
  try {
    const port = Number(fs.readFileSync(file, 'utf8').trim());
    return Number.isInteger(port) && port > 0 && port <= 65535 ? port : undefined;
  } catch {
    return undefined;
  }
}

function writePort(file, port) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${port}\n`);
}

/**
 * Makes `code-server --locale <locale>` take effect without downloading a language pack. VS Code resolves the
 * display language only when a pack for it is registered in the user-data folder (languagepacks.json); without one,
 * --locale ja silently stays English everywhere. A stub pack with no workbench translations is registered: VS
 * Code's own UI stays English, while the display language is `locale` for extensions (package.nls.<locale>.json,
 * l10n bundles, vscode.env.language). A pack already registered for the locale (a real one installed with
 * --install-extension) is left as it is. Returns what it did: 'stub', 'kept' or 'none' (English needs nothing).
 */
export function registerLocale(userDataDir, locale, stubDir = path.join(userDataDir, 'kd-locale-stub')) {
  if (!locale || locale === 'en' || locale.startsWith('en-')) return 'none';
  const file = path.join(userDataDir, 'languagepacks.json');
  let packs = {};
  try {
    packs = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    packs = {};
  }
  const existing = packs[locale];
  if (existing && existing.hash !== 'kd-stub') return 'kept';
  const main = path.join(stubDir, 'main.i18n.json');
  fs.mkdirSync(stubDir, { recursive: true });
  fs.writeFileSync(main, JSON.stringify({ contents: {} }));
  const stub = { extensionIdentifier: { id: 'knowledge-desk.locale-stub' }, version: '1.0.0' };
  packs[locale] = { hash: 'kd-stub', extensions: [stub], translations: { vscode: main }, label: locale };
  fs.mkdirSync(userDataDir, { recursive: true });
  fs.writeFileSync(file, JSON.stringify(packs));
  return 'stub';
}
