import assert from 'node:assert/strict';
import { detectKind, looksLikeText } from '../../../../src/local/extract/detect';

const pdf = Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1');
const zip = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00]);
const text = Buffer.from('hello\nworld\n');

describe('detectKind', () => {
  it('maps known extensions (case-insensitive) when the content agrees', () => {
    assert.equal(detectKind('report.PDF', pdf), 'pdf');
    assert.equal(detectKind('notes.docx', zip), 'docx');
    assert.equal(detectKind('sheet.xlsx', zip), 'xlsx');
    assert.equal(detectKind('page.htm', Buffer.from('<p>x</p>')), 'html');
    assert.equal(detectKind('page.html', Buffer.from('<p>x</p>')), 'html');
    assert.equal(detectKind('readme.md', text), 'markdown');
    assert.equal(detectKind('readme.markdown', text), 'markdown');
    for (const name of ['a.txt', 'a.text', 'a.csv', 'a.tsv', 'a.json', 'a.log']) assert.equal(detectKind(name, text), 'text', name);
  });

  it('keeps .pdf as pdf even without the %PDF header (extraction then explains the damage)', () => {
    assert.equal(detectKind('scan.pdf', Buffer.from('garbage')), 'pdf');
  });

  it('recognises a PDF by its header whatever the name, also after a few leading bytes', () => {
    assert.equal(detectKind('download', pdf), 'pdf');
    assert.equal(detectKind('file.txt', Buffer.concat([Buffer.from('\r\n\r\n'), pdf])), 'pdf');
  });

  it('treats unknown extensions with text content as text, binary as unsupported', () => {
    assert.equal(detectKind('Makefile', text), 'text');
    assert.equal(detectKind('data.xyz', Buffer.from('日本語のテキスト', 'utf8')), 'text');
    assert.equal(detectKind('image.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d])), undefined);
    assert.equal(detectKind('blob.bin', Buffer.from([1, 2, 3, 0, 5])), undefined);
  });

  it('does not read other ZIP archives (or .pptx) as documents', () => {
    assert.equal(detectKind('slides.pptx', zip), undefined);
    assert.equal(detectKind('archive.zip', zip), undefined);
    assert.equal(detectKind('notes.txt', zip), undefined);
  });

  it('rejects a text extension whose content is binary', () => {
    assert.equal(detectKind('notes.txt', Buffer.from([0x00, 0xff, 0x00, 0x10])), undefined);
  });
});

describe('looksLikeText', () => {
  it('accepts UTF-8, Shift_JIS and a head cut inside a multi-byte character', () => {
    assert.equal(looksLikeText(Buffer.from('café ☕', 'utf8')), true);
    assert.equal(looksLikeText(Buffer.from([0x93, 0xfa, 0x96, 0x7b])), true); // 日本 in Shift_JIS
    assert.equal(looksLikeText(Buffer.from('日本', 'utf8').subarray(0, 4)), true);
    assert.equal(looksLikeText(Buffer.from('x')), true);
  });

  it('accepts UTF-16 with a byte order mark (Windows "Unicode" text files)', () => {
    assert.equal(looksLikeText(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('メモ\r\n', 'utf16le')])), true);
    assert.equal(detectKind('memo.txt', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('メモ', 'utf16le')])), 'text');
  });

  it('rejects NUL bytes and control characters', () => {
    assert.equal(looksLikeText(Buffer.from('ab\u0000cd')), false);
    assert.equal(looksLikeText(Buffer.from('ab\u0002cd')), false);
  });
});
