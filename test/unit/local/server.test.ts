import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { ROUTES } from '../../../src/local/http/routes';
import { startLocalService } from '../../../src/local/service';
import { DataFolderLockedError } from '../../../src/local/store/lock';
import { startTestService, type TestService } from '../support/localService';

async function call(url: string, method: string, headers: Record<string, string> = {}, body?: string) {
  const res = await request(url, { method: method as 'GET', headers, body });
  const text = await res.body.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: res.statusCode, headers: res.headers, json };
}

describe('Local service HTTP layer', () => {
  let t: TestService;
  before(async () => (t = await startTestService({ maxJsonBytes: 64 * 1024 })));
  after(() => t.stop());
  const key = () => ({ 'API-KEY': t.service.apiKey, 'content-type': 'application/json' });

  it('routes every path of the API (never 404 or 405 for the right method)', async () => {
    for (const r of ROUTES.filter((r) => r.api !== 'admin')) {
      const url = t.service.url + r.path.replace(/\{(\w+)\}/g, 'x1');
      const headers = r.api === 'nlu' ? { 'API-KEY': t.service.nluApiKey } : key();
      const res = await call(url, r.method, headers, r.method === 'GET' || r.method === 'DELETE' ? undefined : '{}');
      assert.ok(
        ![404, 405].includes(res.status) || (res.json as { errors?: string })?.errors?.match(/not found/i),
        `${r.method} ${r.path} → ${res.status}`,
      );
      const body = res.json as { errors?: string; message?: string };
      if (res.status === 501) assert.match(body.errors ?? body.message ?? '', new RegExp(r.op.replace('.', '\\.')));
    }
  });

  it('answers 405 with Allow for a wrong method, 404 for an unknown path, in the base error shape', async () => {
    const wrong = await call(`${t.service.url}/webapi/faq/embedding_status`, 'POST', key(), '{}');
    assert.equal(wrong.status, 405);
    assert.equal(wrong.headers.allow, 'GET');
    assert.deepEqual(wrong.json, { errors: 'POST is not allowed here; use GET.', code: 405 });
    const unknown = await call(`${t.service.url}/webapi/v3/nothing`, 'GET', key());
    assert.equal(unknown.status, 404);
    assert.equal((unknown.json as { code: number }).code, 404);
  });

  it('requires the key: 401 for base_url operations, 403/7001 for entity recognition', async () => {
    const missing = await call(`${t.service.url}/webapi/faq/embedding_status`, 'GET');
    assert.deepEqual(missing, { ...missing, status: 401, json: { errors: 'The API-KEY header is missing or invalid.', code: 401 } });
    const wrong = await call(`${t.service.url}/webapi/faq/embedding_status`, 'GET', { 'API-KEY': t.service.apiKey + 'x' });
    assert.equal(wrong.status, 401);
    const crossed = await call(`${t.service.url}/webapi/faq/embedding_status`, 'GET', { 'API-KEY': t.service.nluApiKey });
    assert.equal(crossed.status, 401, 'the entity-recognition key must not open base_url operations');
    const bearer = await call(`${t.service.url}/webapi/faq/embedding_status`, 'GET', { authorization: `Bearer ${t.service.apiKey}` });
    assert.equal(bearer.status, 200, 'bearer authentication is declared by the service');
    const nlu = await call(`${t.service.url}/api/inference`, 'POST', { 'API-KEY': t.service.apiKey }, '{"text":"x"}');
    assert.deepEqual(nlu.json, { type: 'APIError', code: 7001, message: 'API-KEY is not valid.' });
    assert.equal(nlu.status, 403);
    const nluMethod = await call(`${t.service.url}/api/inference`, 'GET', { 'API-KEY': t.service.nluApiKey });
    assert.equal(nluMethod.status, 405);
  });

  it('rejects invalid JSON with 400 and an over-limit JSON body with 413', async () => {
    const invalid = await call(`${t.service.url}/webapi/v2/knowledge_base_nodes/search`, 'POST', key(), '{"filter_": ');
    assert.deepEqual(invalid.json, { errors: 'The request body is not valid JSON.', code: 400 });
    const big = await call(
      `${t.service.url}/webapi/v2/knowledge_base_nodes/search`,
      'POST',
      key(),
      JSON.stringify({ pad: 'x'.repeat(100_000) }),
    );
    assert.equal(big.status, 413);
    assert.match((big.json as { errors: string }).errors, /larger than the limit of 64 KB/);
  });

  it('listens on 127.0.0.1 only', async () => {
    assert.match(t.service.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    const external = Object.values(networkInterfaces())
      .flat()
      .find((i) => i && i.family === 'IPv4' && !i.internal);
    if (!external) return; // no other interface on this machine: nothing else to try
    const refused = await new Promise<boolean>((resolve) => {
      const s = connect(t.service.port, external.address);
      s.once('connect', () => {
        s.destroy();
        resolve(false);
      });
      s.once('error', () => resolve(true));
    });
    assert.ok(refused, `the service answered on ${external.address}`);
  });

  it('lets only one process write a data folder, naming the owner and its URL', async () => {
    const error = await startLocalService({ dataDir: t.dir }).catch((e) => e);
    assert.ok(error instanceof DataFolderLockedError, String(error));
    assert.equal(error.owner.pid, process.pid);
    assert.equal(error.owner.url, t.service.url);
  });
});

describe('Local service lifecycle', () => {
  it('keeps its keys across restarts and releases the folder on close', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'kd-life-'));
    try {
      const first = await startLocalService({ dataDir: dir });
      await first.close();
      const second = await startLocalService({ dataDir: dir });
      assert.equal(second.apiKey, first.apiKey);
      assert.equal(second.nluApiKey, first.nluApiKey);
      assert.notEqual(second.apiKey, second.nluApiKey);
      assert.match(second.apiKey, /^kd_local_[A-Za-z0-9_-]{40,}$/);
      await second.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('runs standalone: prints its URL and key, answers, and stops on SIGTERM', async function () {
    this.timeout(30_000);
    const dir = await mkdtemp(path.join(tmpdir(), 'kd-cli-'));
    const child = spawn(process.execPath, ['--import', 'tsx', path.resolve('src/local/entry.ts'), '--data', dir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      const deadline = Date.now() + 20_000;
      while (!/API key:\s+\S+/.test(out) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      const url = /URL:\s+(\S+)/.exec(out)?.[1];
      const apiKey = /API key:\s+(\S+)/.exec(out)?.[1];
      assert.ok(url && apiKey, `no URL/key printed: ${out}`);
      const res = await call(`${url}/webapi/faq/embedding_status`, 'GET', { 'API-KEY': apiKey });
      assert.deepEqual(res.json, { total: 0, pending: 0, ready: 0 });
      child.kill('SIGTERM');
      const code = await new Promise((r) => child.once('exit', r));
      assert.equal(code, 0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses bad command-line arguments with usage and exit code 2', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.resolve('src/local/entry.ts'), '--port', 'abc', '--data', '/tmp/x'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    const code = await new Promise((r) => child.once('exit', r));
    assert.equal(code, 2);
    assert.match(err, /--port must be a port number/);
  });
});
