import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import * as collections from '../../../../src/local/store/collections';

describe('journal collections (the local service durable format)', () => {
  it('every collection has its own name, a plain identifier', () => {
    const names = Object.values(collections);
    assert.ok(names.length >= 11, `only ${names.length} collections`);
    assert.equal(new Set(names).size, names.length, `a name is used twice: ${names.join(', ')}`);
    for (const name of names) assert.match(name, /^[a-z][A-Za-z]*$/);
  });

  it('keep their names (a rename loses the data stored under the old one)', () => {
    assert.deepEqual(
      { ...collections },
      {
        NODES: 'nodes',
        FAQS: 'faqs',
        FAQ_SEARCHES: 'faqSearches',
        FAQ_SELECTIONS: 'faqSelections',
        FAQ_FEEDBACK: 'faqFeedback',
        FAQ_CANDIDATES: 'faqCandidates',
        ANSWER_THREADS: 'answerThreads',
        ANSWER_FEEDBACK: 'answerFeedback',
        RARE: 'rare',
        RARE_RESULTS: 'rareResults',
        BULK_RUNS: 'bulkRuns',
      },
    );
  });

  it('no module of the local service opens a collection by a literal name', () => {
    const offenders: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir)) {
        const path = join(dir, entry);
        if (statSync(path).isDirectory()) walk(path);
        else if (path.endsWith('.ts') && /\.collection(<[^>]*>)?\(\s*['"`]/.test(readFileSync(path, 'utf8'))) offenders.push(path);
      }
    };
    walk(join(__dirname, '../../../../src/local'));
    assert.deepEqual(offenders, []);
  });
});
