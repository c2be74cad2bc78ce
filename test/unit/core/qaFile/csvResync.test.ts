import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import type { BrokenRecord } from '../../../../src/core/qaFile/collector';
import { ResyncingCsvParser } from '../../../../src/core/qaFile/csvResync';
import { quoteProblemLine } from '../../../../src/core/qaFile/quoteScan';
import { fixture } from './helpers';

type Event = ['record', number, string[]] | ['broken', BrokenRecord];

function parseInChunks(data: Buffer, size: number, delimiter: ',' | '\t' = ',', maxRecordBytes?: number): Event[] {
  const events: Event[] = [];
  const parser = new ResyncingCsvParser(
    delimiter,
    { record: (cells, row) => events.push(['record', row, [...cells]]), brokenRecord: (b) => events.push(['broken', b]) },
    maxRecordBytes,
  );
  for (let i = 0; i < data.length; i += size) parser.write(data.subarray(i, i + size));
  parser.end();
  return events;
}

const CSV_FIXTURES = [
  'good-en.csv',
  'good-ja-bom.csv',
  'mixed-eol.csv',
  'unbalanced-quotes.csv',
  'ragged.csv',
  'empty-lines.csv',
  'duplicates.csv',
  'invalid-status.csv',
];

describe('ResyncingCsvParser', () => {
  it('gives the same records, rows and broken records whatever the chunk boundaries (CRLF and UTF-8 split included)', async () => {
    for (const name of [...CSV_FIXTURES, 'tab.tsv']) {
      const data = await readFile(fixture(name));
      const delimiter = name.endsWith('.tsv') ? '\t' : ',';
      const whole = parseInChunks(data, data.length, delimiter);
      for (const size of [1, 2, 3, 5, 8, 13, 64])
        assert.deepEqual(parseInChunks(data, size, delimiter), whole, `${name} in chunks of ${size}`);
    }
  });

  it('reports a record over the size limit (unclosed quote or giant line) and resumes on the next line', () => {
    const data = Buffer.from(`question,answer\nQ1,"${'x'.repeat(300)}\nQ2,A2\nQ3,${'y'.repeat(300)}\nQ4,A4\n`);
    for (const size of [1, 7, 64, data.length]) {
      const events = parseInChunks(data, size, ',', 100);
      assert.deepEqual(
        events.map((e) => (e[0] === 'record' ? [e[1], e[2][0]] : [e[1].row, e[1].kind, e[1].resumedAt])),
        [
          [1, 'question'],
          [2, 'record-too-large', 3],
          [3, 'Q2'],
          [4, 'record-too-large', 5],
          [5, 'Q4'],
        ],
        `chunks of ${size}`,
      );
    }
  });

  it('an unclosed quote on the last line reports nothing to resume', () => {
    const events = parseInChunks(Buffer.from('question,answer\nQ1,"A1'), 4);
    assert.deepEqual(events.at(-1), ['broken', { row: 2, kind: 'unclosed-quote', columnIndex: 1 }]);
  });

  it('a blank line right before a broken record is counted', () => {
    const events = parseInChunks(Buffer.from('question,answer\r\n\r\n\r\nQ1,"A1 "x" y"\r\nQ2,A2\r\n'), 3);
    assert.deepEqual(
      events.slice(1).map((e) => (e[0] === 'record' ? e[1] : [e[1].row, e[1].kind, e[1].resumedAt])),
      [[4, 'bad-quote', 5], 5],
    );
  });
});

describe('quoteProblemLine', () => {
  const at = (text: string) => quoteProblemLine(Buffer.from(text), 0, 44);
  it('finds the line of the first quoting error, or of the quote never closed', () => {
    assert.equal(at('a,"b\nc "d" e",f\n'), 1);
    assert.equal(at('a,b "c",d\n'), 0);
    assert.equal(at('a,"b\r\nc\r\nd'), 0);
    assert.equal(at('a,"b ""ok""\nc",d\n'), undefined);
    assert.equal(at('a,b\n"c'), undefined);
  });
});
