import assert from 'node:assert/strict';
import path from 'node:path';
import { dryRunQaFile } from '../../../../src/core/qaFile/dryRun';
import { readQaFile } from '../../../../src/core/qaFile/readQaFile';
import { assertEveryRecordAccountedFor, fixture, FILE_LEVEL_ERRORS, useTempDir, writeXlsxFixture } from './helpers';

/** Every fixture with the rows its records start on (as a person reading the file counts them). */
const RECORDS: Record<string, number[]> = {
  'good-en.csv': [2, 3, 6, 7],
  'good-ja-bom.csv': [2, 3, 5],
  'shift-jis.csv': [2, 3],
  'tab.tsv': [2, 3],
  'mixed-eol.csv': [2, 3, 5, 6],
  'unbalanced-quotes.csv': [2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
  'ragged.csv': [2, 3, 4, 5, 6, 7],
  'empty-lines.csv': [4, 7, 10],
  'no-header.csv': [1, 2],
  'duplicates.csv': [2, 3, 4, 5, 6, 7, 8],
  'invalid-status.csv': [2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
  'qa.xlsx': [2, 3, 5, 6],
};

describe('no record vanishes silently', () => {
  const tmp = useTempDir();

  for (const [name, records] of Object.entries(RECORDS)) {
    it(`${name}: every record is imported or has an error; the dry run counts each once`, async () => {
      let file = fixture(name);
      if (name.endsWith('.xlsx')) {
        file = path.join(tmp.dir(), name);
        await writeXlsxFixture(file);
      }
      const read = await readQaFile(file, name);
      assertEveryRecordAccountedFor(read, records);
      const dry = await dryRunQaFile(file, name, { existingQuestions: new Set() });
      assertEveryRecordAccountedFor(dry, records);
      assert.deepEqual(dry.rows, read.rows);
      const fatal = dry.problems.some((p) => FILE_LEVEL_ERRORS.has(p.code));
      assert.equal(dry.summary.total, fatal ? 0 : records.length);
      const rejected = new Set(dry.problems.filter((p) => p.severity === 'error').map((p) => p.row)).size;
      if (!fatal) assert.equal(dry.summary.total, dry.summary.valid + rejected);
    });
  }
});
