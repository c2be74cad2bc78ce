import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { readQaFile } from '../../../../src/core/qaFile/readQaFile';
import { fixture, useTempDir } from './helpers';

describe('readQaFile: encodings of large files', () => {
  const tmp = useTempDir();

  it('UTF-8 without BOM whose characters straddle read chunks stays UTF-8', async () => {
    const lines = ['質問,回答'];
    for (let i = 0; i < 6000; i++) lines.push(`質問${i}は何ですか,回答${i}です。${'あ'.repeat(i % 17)}`);
    const file = await tmp.file('ja-big.csv', lines.join('\n') + '\n');
    const r = await readQaFile(file, 'ja-big.csv');
    assert.equal(r.encoding, 'utf-8');
    assert.deepEqual(r.problems, []);
    assert.equal(r.rows.length, 6000);
    assert.deepEqual([r.rows[5999].row, r.rows[5999].question], [6001, '質問5999は何ですか']);
  });

  it('Shift_JIS whose first non-ASCII byte comes after the first chunk is read again as Shift_JIS from the start', async () => {
    const sjis = await readFile(fixture('shift-jis.csv'));
    const dataLines = sjis.subarray(sjis.indexOf(0x0a) + 1); // the two Japanese records (3 lines)
    const ascii = Array.from({ length: 10000 }, (_, i) => `Question ${i},Answer ${i} ${'x'.repeat(20)},tag,on\r\n`).join('');
    const file = await tmp.file('sjis-late.csv', Buffer.concat([Buffer.from(`question,answer,hashtags,status\r\n${ascii}`), dataLines]));
    const r = await readQaFile(file, 'sjis-late.csv');
    assert.equal(r.encoding, 'shift_jis');
    assert.deepEqual(r.problems, []);
    assert.equal(r.rows.length, 10002);
    assert.deepEqual(
      r.rows.slice(-2).map((x) => [x.row, x.question, x.status]),
      [
        [10002, 'パスワードを忘れました', 'on'],
        [10003, '営業時間は？', 'off'],
      ],
    );
  });

  it('a Latin-1 (Windows-1252) file with é, ü and ß is read as Windows-1252, not as Shift_JIS', async () => {
    const text = 'question,answer\r\nWo ist das Café?,Grüße aus der Müllerstraße\r\nÉcole ou hôtel ?,Très bien ; ça coûte 5 €\r\n';
    const file = await tmp.file('latin1.csv', Buffer.from(text.replace('€', '\x80'), 'latin1'));
    const r = await readQaFile(file, 'latin1.csv');
    assert.equal(r.encoding, 'windows-1252');
    assert.deepEqual(r.problems, []);
    assert.deepEqual(
      r.rows.map((x) => [x.question, x.answer]),
      [
        ['Wo ist das Café?', 'Grüße aus der Müllerstraße'],
        ['École ou hôtel ?', 'Très bien ; ça coûte 5 €'],
      ],
    );
  });

  it('a Shift_JIS file with Japanese is still read as Shift_JIS', async () => {
    const r = await readQaFile(fixture('shift-jis.csv'), 'shift-jis.csv');
    assert.equal(r.encoding, 'shift_jis');
    assert.deepEqual(r.problems, []);
    assert.deepEqual(
      r.rows.map((x) => x.question),
      ['パスワードを忘れました', '営業時間は？'],
    );
  });
});
