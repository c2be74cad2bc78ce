import assert from 'node:assert/strict';
import { cellText } from '../../../src/core/xlsxCell';

// One cell conversion for the Q&A file reader and the document extraction (both read workbooks).
describe('Excel cell text', () => {
  it('formats values as Excel shows them', () => {
    assert.equal(cellText(0.1 + 0.2), '0.3');
    assert.equal(cellText({ formula: 'A1', result: { error: '#DIV/0!' } } as never), '#DIV/0!');
    assert.equal(cellText({ text: 'Portal', hyperlink: 'https://example.invalid' }), 'Portal');
    assert.equal(cellText({ sharedFormula: 'B2', result: 7 } as never), '7');
    assert.equal(cellText({ richText: [{ text: 'Open ' }, { text: 'Settings' }] }), 'Open Settings');
    assert.equal(cellText(true), 'TRUE');
    assert.equal(cellText(null), '');
  });

  it('prints a date, with its time only when it has one', () => {
    assert.equal(cellText(new Date(Date.UTC(2024, 0, 2))), '2024-01-02');
    assert.equal(cellText(new Date(Date.UTC(2024, 0, 2, 13, 45))), '2024-01-02 13:45');
    assert.equal(cellText(new Date(Number.NaN)), '');
  });

  it('keeps line breaks inside a cell: they are content, e.g. a multi-line answer', () => {
    assert.equal(cellText('two\nlines'), 'two\nlines');
    assert.equal(cellText({ richText: [{ text: 'one\n' }, { text: 'two' }] }), 'one\ntwo');
  });
});
