import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

// service.ts builds every service once and hands it to the handlers: a handler module that opened its own
// view of the journal would keep a second copy of the same data (two Q&A indexes, two phrase books).
describe('Local service wiring', () => {
  const dir = path.resolve(__dirname, '../../../src/local/handlers');
  const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));

  it('handlers get their services from service.ts: none reads the journal or builds a service or store', () => {
    assert.ok(files.length >= 8);
    const offenders = files.flatMap((f) => {
      const code = readFileSync(path.join(dir, f), 'utf8');
      const found: string[] = [];
      if (/from '\.\.\/store\/journal'/.test(code)) found.push(`${f}: imports the journal`);
      for (const m of code.matchAll(/\bnew ([A-Z]\w*(?:Service|Store|Book|Index|Log|Queue))\(/g)) found.push(`${f}: new ${m[1]}`);
      return found;
    });
    assert.deepEqual(offenders, []);
  });

  it('every handler factory takes one dependencies object', () => {
    for (const f of files) {
      const code = readFileSync(path.join(dir, f), 'utf8');
      for (const m of code.matchAll(/export function (\w+Handlers)\(([^{)]*(?:\{[^}]*\})?[^)]*)\)/g)) {
        assert.doesNotMatch(m[2].replace(/,\s*$/, ''), /,/, `${f}: ${m[1]}(${m[2]})`);
      }
    }
  });
});
