import assert from 'node:assert/strict';
import { planQaImport, updateFields, type ExistingQa } from '../../../../src/core/qaFile/importPlan';
import { normalizeQuestion } from '../../../../src/core/qaFile/text';
import type { ColumnMapping, QaRow } from '../../../../src/core/qaFile/types';

const ALL: ColumnMapping = { question: 0, answer: 1, similarQuestions: 2, hashtags: 3, status: 4, folder: 5 };

/** The Q&A of issue 22: two similar questions, #debian #network, in a folder, on. */
const existing: ExistingQa = {
  id: 'faq-1',
  question: 'How do I configure the network on Debian?',
  answer: 'Edit /etc/network/interfaces.',
  similarQuestions: ['Debian network setup', 'Configure eth0 on Debian'],
  hashtags: ['debian', 'network'],
  status: 'on',
  folder: 'Linux',
};
const byKey = new Map([[normalizeQuestion(existing.question), existing]]);

function row(over: Partial<QaRow>): QaRow {
  return {
    row: 2,
    question: existing.question,
    answer: existing.answer,
    similarQuestions: existing.similarQuestions,
    hashtags: existing.hashtags,
    status: 'on',
    folder: 'Linux',
    ...over,
  };
}

describe('planQaImport: what a Q&A file changes on existing Q&As', () => {
  it('a row equal to the Q&A changes nothing and is not sent', () => {
    const plan = planQaImport([row({})], ALL, byKey);
    assert.deepEqual([plan.create.length, plan.update.length, plan.unchanged, plan.removals], [0, 0, 1, 0]);
  });

  it('issue 22: changed answer, empty similar questions and new hashtags are shown field by field; the removals are marked', () => {
    const plan = planQaImport([row({ answer: 'Use NetworkManager.', similarQuestions: [], hashtags: ['debian', 'apt'] })], ALL, byKey);
    assert.equal(plan.removals, 1);
    assert.deepEqual(
      plan.update[0].changes.map((c) => [c.field, c.removes, c.text]),
      [
        ['answer', false, 'answer changed'],
        ['similarQuestions', true, 'similar questions 2 → 0'],
        ['hashtags', true, 'hashtags #debian #network → #debian #apt'],
      ],
    );
    const u = plan.update[0];
    assert.deepEqual(updateFields(u, 'keep'), { answer: 'Use NetworkManager.', hashtags: ['debian', 'network', 'apt'] });
    assert.deepEqual(updateFields(u, 'remove'), { answer: 'Use NetworkManager.', similar_questions: [], hashtags: ['debian', 'apt'] });
  });

  it('a column the file does not have never changes a field, whatever the choice', () => {
    const plan = planQaImport(
      [row({ answer: 'New.', similarQuestions: [], hashtags: [], folder: undefined, status: 'on' })],
      { question: 0, answer: 1 },
      byKey,
    );
    assert.deepEqual(
      plan.update[0].changes.map((c) => c.field),
      ['answer'],
    );
    assert.deepEqual(updateFields(plan.update[0], 'remove'), { answer: 'New.' });
  });

  it('a cleared folder and on → off are removals; a new folder and off → on are changes; an empty status cell keeps the status', () => {
    const cleared = planQaImport([row({ folder: undefined, status: 'off' })], ALL, byKey).update[0];
    assert.deepEqual(
      cleared.changes.map((c) => [c.field, c.removes, c.text]),
      [
        ['folder', true, 'folder "Linux" → (none)'],
        ['status', true, 'on → off'],
      ],
    );
    assert.equal(updateFields(cleared, 'keep'), undefined, 'keeping both leaves nothing to send');
    assert.deepEqual(updateFields(cleared, 'remove'), { folder: '', status: 'off' });
    const moved = planQaImport([row({ folder: 'Debian' })], ALL, { get: () => ({ ...existing, status: 'off' as const }) } as never);
    assert.deepEqual(
      moved.update[0].changes.map((c) => [c.field, c.removes]),
      [
        ['folder', false],
        ['status', false],
      ],
    );
    const blank = planQaImport([row({ status: 'on', statusBlank: true })], ALL, {
      get: () => ({ ...existing, status: 'off' as const }),
    } as never);
    assert.equal(blank.unchanged, 1, 'an empty status cell keeps "off"');
  });

  it('adding similar questions or hashtags is a change, not a removal; order and case of similar questions alone are not a removal', () => {
    const plan = planQaImport(
      [row({ similarQuestions: ['configure eth0 on debian', 'Debian network setup', 'Netplan?'], hashtags: ['network', 'debian'] })],
      ALL,
      byKey,
    );
    assert.equal(plan.removals, 0);
    assert.deepEqual(
      plan.update[0].changes.map((c) => [c.field, c.removes]),
      [['similarQuestions', false]],
    );
  });

  it('new questions are created; existing ones with removals come first', () => {
    const other: ExistingQa = { ...existing, id: 'faq-2', question: 'Other?', similarQuestions: [] };
    const map = new Map([...byKey, [normalizeQuestion('Other?'), other]]);
    const plan = planQaImport(
      [
        row({ row: 2, question: 'Other?', answer: 'changed', similarQuestions: [] }),
        row({ row: 3, hashtags: [] }),
        row({ row: 4, question: 'Brand new?' }),
      ],
      ALL,
      map,
    );
    assert.deepEqual(
      plan.create.map((r) => r.row),
      [4],
    );
    assert.deepEqual(
      plan.update.map((u) => [u.row.row, u.removes]),
      [
        [3, true],
        [2, false],
      ],
    );
  });
});
