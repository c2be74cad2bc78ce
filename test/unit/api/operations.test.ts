import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { request } from 'undici';
import { OPERATIONS, operationEntries } from '../../../src/core/operations';
import { ROUTES } from '../../../src/local/http/routes';
import { TEST_ROUTES } from '../../../src/local/testKit';
import { startTestService, type TestService } from '../support/localService';

// The client and the local service take every operation from one table (src/core/operations.ts). These tests
// fail when the two could disagree: a route the table does not name, a table entry the service does not
// serve, a resource that writes its own operation name, method or path.

/** The only routes outside the table: the local service's test routes (docs/api.md#local-only-routes). */
const LISTED_TEST_ROUTES = [
  'POST /_local/faults admin.faults',
  'POST /_local/processing admin.processing',
  'GET /_local/whoami admin.whoami',
  'POST /_local/echo admin.echo',
  'POST /_local/stream-delay admin.streamDelay',
];

const root = path.resolve(__dirname, '../../..');

function sourcesUnder(dir: string): string[] {
  return readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => path.join(dir, f));
}

describe('One table of operations for the client and the local service', () => {
  it('the local service routes exactly the table (paths and aliases), plus the listed test routes', () => {
    const table = operationEntries().flatMap(([op, d]) => [d.path, ...(d.aliases ?? [])].map((p) => `${d.method} ${p} ${op} ${d.api}`));
    const routed = ROUTES.map((r) => `${r.method} ${r.path} ${r.op} ${r.api}`);
    assert.deepEqual([...routed].sort(), [...table].sort());
    assert.deepEqual(
      TEST_ROUTES.map((r) => `${r.method} ${r.path} ${r.op}`),
      LISTED_TEST_ROUTES,
    );
    const names = new Set([...ROUTES, ...TEST_ROUTES].map((r) => r.op));
    assert.equal(names.size, Object.keys(OPERATIONS).length + LISTED_TEST_ROUTES.length, 'a test route reuses a table name');
  });

  it('every operation is documented in an existing section of docs/api.md', () => {
    const slugs = new Set(
      readFileSync(path.join(root, 'docs/api.md'), 'utf8')
        .split('\n')
        .filter((l) => l.startsWith('#'))
        .map((l) =>
          l
            .replace(/^#+\s*/, '')
            .toLowerCase()
            .replace(/[^\p{L}\p{N}\s-]/gu, '')
            .replace(/\s/g, '-'),
        ),
    );
    for (const [name, def] of operationEntries()) {
      assert.match(def.doc, /^api\.md#/, name);
      assert.ok(slugs.has(def.doc.slice('api.md#'.length)), `${name}: no section ${def.doc}`);
    }
  });

  it('no client request names its own operation, method or path: each comes from endpoint() by table name', () => {
    const files = [...sourcesUnder('src/api'), ...sourcesUnder('src/ai'), ...sourcesUnder('src/features')].filter(
      (f) => !f.endsWith(path.join('api', 'endpoint.ts')),
    );
    const own = /\boperation:\s*['`]|\/(?:webapi|_local)\/|['`]\/api\/|\bpath`/;
    const code = (f: string) =>
      readFileSync(path.join(root, f), 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/^\s*\/\/.*$/gm, '');
    const offenders = files.filter((f) => own.test(code(f)));
    assert.deepEqual(offenders, []);
    // And the resources do use the table: every resource file sends through endpoint().
    const resources = sourcesUnder('src/api/resources').filter((f) =>
      /\.request(?:Raw)?(?:Optional)?\(/.test(readFileSync(path.join(root, f), 'utf8')),
    );
    assert.ok(resources.length >= 9, `only ${resources.length} resource files send requests`);
    for (const f of resources) assert.match(readFileSync(path.join(root, f), 'utf8'), /\bendpoint\(/, f);
  });

  describe('against the real local service', () => {
    let t: TestService;
    before(async () => (t = await startTestService()));
    after(() => t.stop());

    it('serves every operation of the table at its path and aliases: none is unrouted (404/405) or unimplemented (501)', async () => {
      for (const r of ROUTES) {
        const url = t.service.url + r.path.replace(/\{(\w+)\}/g, 'x1');
        const key = r.api === 'nlu' ? t.service.nluApiKey : t.service.apiKey;
        const sendsBody = r.method === 'POST' || r.method === 'PUT';
        const res = await request(url, {
          method: r.method,
          headers: { 'API-KEY': key, 'content-type': 'application/json' },
          body: sendsBody ? '{}' : undefined,
        });
        const text = await res.body.text();
        const where = `${r.op}: ${r.method} ${r.path} → ${res.statusCode} ${text.slice(0, 120)}`;
        assert.ok(![405, 501].includes(res.statusCode), where);
        assert.doesNotMatch(text, /No operation at/, where);
      }
    });
  });
});
