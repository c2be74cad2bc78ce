import assert from 'node:assert/strict';
import {
  BUILD_NUMBER_PARAMS,
  GENERATE_NUMBER_PARAMS,
  checkBulkCsv,
  defaultBuildParams,
  defaultGenerateParams,
  describeParams,
  displayCsv,
  escapeResultCsv,
  parseNumber,
  resultFileName,
  validateNumber,
} from '../../../src/features/jobs/jobParams';

const param = (key: string) => [...BUILD_NUMBER_PARAMS, ...GENERATE_NUMBER_PARAMS].find((p) => p.key === key)!;

describe('jobParams', () => {
  it('has the documented defaults', () => {
    assert.deepEqual(defaultBuildParams(), { similarity_threshold: 0.3, top_k_per_chunk: 5, max_similar_items: 3, max_workers: 2 });
    assert.deepEqual(defaultGenerateParams(), { num_samples: 10, input_pool_size: 50, num_questions: 3, num_information: 3 });
    assert.equal(describeParams({ folders: 'all', folder_ids: [], max_workers: 2, language: undefined }), 'folders all, max workers 2');
  });

  it('validates ranges and whole numbers; empty means the default', () => {
    const threshold = param('similarity_threshold');
    assert.equal(validateNumber(threshold, '0.45'), undefined);
    assert.equal(validateNumber(threshold, '.5'), undefined);
    assert.equal(validateNumber(threshold, ''), undefined);
    assert.match(validateNumber(threshold, '1.5')!, /between 0 and 1/);
    assert.match(validateNumber(threshold, 'abc')!, /a number from 0 to 1/);
    assert.match(validateNumber(param('max_workers'), '2.5')!, /whole number/);
    assert.match(validateNumber(param('top_k_per_chunk'), '0')!, /between 1 and 100/);
    assert.equal(parseNumber(threshold, ' '), 0.3);
    assert.equal(parseNumber(param('num_samples'), '25'), 25);
    assert.throws(() => parseNumber(param('num_samples'), '-1'), /between 1 and 1000/);
  });

  it('checks a bulk CSV header before sending it', () => {
    assert.deepEqual(checkBulkCsv('\uFEFFQuestion,model,search_type\nHi?,gpt,hybrid\n日本語?,gpt,hybrid\n'), { rows: 2, missing: [] });
    assert.deepEqual(checkBulkCsv('question\nHi?\n'), { rows: 1, missing: ['model', 'search_type'] });
    assert.throws(() => checkBulkCsv('q,a\n1,2\n'), /needs a "question" column.*header is: q, a/);
    assert.throws(() => checkBulkCsv('question,model\n'), /no questions/);
    assert.throws(() => checkBulkCsv('question\n"unterminated\n'), /not a readable CSV/);
  });

  it('escapes formula-like cells only in the saved file; the opened text is unchanged', () => {
    const csv = 'sample_id,question,answer\n1,=SUM(A1),"-5, really"\n2,@cmd,"tab\tinside"\n3,\tlead,+1\n';
    assert.equal(displayCsv('\uFEFF' + csv), csv);
    assert.equal(
      escapeResultCsv(csv),
      "\uFEFFsample_id,question,answer\r\n1,'=SUM(A1),\"'-5, really\"\r\n2,'@cmd,tab\tinside\r\n3,'\tlead,'+1\r\n",
    );
  });

  it('names result files by date and id', () => {
    assert.equal(resultFileName('rare-result', '2025-03-01T14:05:00Z', 'abc-123-def'), 'rare-result-20250301-1405-abc123.csv');
    assert.equal(resultFileName('bulk-ga', null, '9f'), 'bulk-ga-9f.csv');
  });
});
