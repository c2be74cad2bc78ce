import assert from 'node:assert/strict';
import { PromptCancelled, promptBuildParams, promptBulkType, promptGenerateParams } from '../../../src/features/jobs/jobPrompts';
import type { UserInput } from '../../../src/platform/userInput';

type Asked = { kind: string; title?: string; value?: string; items?: string[]; placeHolder?: string };

/** Answers prompts from a list (labels without icons, or input text); records what was asked. */
function ui(answers: unknown[]) {
  const asked: Asked[] = [];
  const plain = (l: string) => l.replace(/^\$\([\w~-]+\)\s*/, '');
  const input: UserInput = {
    async showQuickPick(items, options) {
      const list = await items;
      asked.push({ kind: 'pick', title: options.title, items: list.map((i) => plain(i.label)), placeHolder: options.placeHolder });
      const a = answers.shift();
      return a === undefined ? undefined : list.find((i) => plain(i.label) === a);
    },
    async showQuickPickMany(items, options) {
      asked.push({ kind: 'many', title: options.title, items: items.map((i) => plain(i.label)) });
      const a = answers.shift() as string[] | undefined;
      return a && items.filter((i) => a.includes(plain(i.label)));
    },
    async showInputBox(options) {
      asked.push({ kind: 'input', title: options.title, value: options.value });
      const a = answers.shift() as string | undefined;
      if (a !== undefined) assert.equal(await options.validateInput?.(a), undefined, `"${a}" is valid`);
      return a;
    },
    async showQuickPickManyWithButtons() {
      throw new Error('unexpected');
    },
    async showWarningMessage() {
      throw new Error('unexpected');
    },
    async showOpenDialog() {
      throw new Error('unexpected');
    },
  };
  return { input, asked };
}

const children = (p: { parentFolderIds: Array<string | null> }) =>
  p.parentFolderIds[0] === null
    ? [
        { id: 'f1', name: 'Handbook', breadcrumbs: [] },
        { id: 'f2', name: '経費', breadcrumbs: [] },
      ]
    : [];
const folders = {
  kbNodes: {
    search: async (p: { parentFolderIds: Array<string | null> }) => ({ nodes: children(p) }),
    // The folder picker reads every page through listAll (kbPaging.ts).
    listAll: async (p: { parentFolderIds: Array<string | null> }) => children(p),
  },
} as never;

describe('jobPrompts', () => {
  it('Use defaults starts a build with the defaults in one step', async () => {
    const { input, asked } = ui(['Use defaults']);
    assert.deepEqual(await promptBuildParams(input, folders), {
      similarity_threshold: 0.3,
      top_k_per_chunk: 5,
      max_similar_items: 3,
      max_workers: 2,
    });
    assert.deepEqual(asked[0].items, ['Use defaults', 'Customize…']);
    assert.equal(asked.length, 1);
  });

  it('Customize asks folders, language and each number showing its default', async () => {
    const { input, asked } = ui(['Customize…', ['経費'], 'Japanese', '0.5', '', '4', '1']);
    const params = await promptBuildParams(input, folders);
    assert.deepEqual(params, {
      folder_ids: ['f2'],
      language: 'ja',
      similarity_threshold: 0.5,
      top_k_per_chunk: 5,
      max_similar_items: 4,
      max_workers: 1,
    });
    assert.deepEqual(asked[1].items, ['Handbook', '経費']);
    assert.deepEqual(
      asked.filter((a) => a.kind === 'input').map((a) => a.value),
      ['0.3', '5', '3', '2'],
    );
    assert.match(asked[2].title!, /language \(2\/6\)/);
  });

  it('no folder chosen means all folders; Auto sends no language', async () => {
    const { input } = ui(['Customize…', [], 'Auto', '', '', '', '']);
    const params = await promptBuildParams(input, folders);
    assert.equal('folder_ids' in params, false);
    assert.equal('language' in params, false);
  });

  it('generate: defaults, or numbers, language and an optional custom prompt; warns before a build', async () => {
    const d = ui(['Use defaults']);
    assert.deepEqual(await promptGenerateParams(d.input, false), {
      num_samples: 10,
      input_pool_size: 50,
      num_questions: 3,
      num_information: 3,
    });
    assert.match(d.asked[0].placeHolder!, /build has not completed/);
    const c = ui(['Customize…', '5', '20', '2', '1', 'English', '  Ask like a new employee  ']);
    assert.deepEqual(await promptGenerateParams(c.input, true), {
      num_samples: 5,
      input_pool_size: 20,
      num_questions: 2,
      num_information: 1,
      language: 'en',
      rare_user_prompt: 'Ask like a new employee',
    });
    const e = ui(['Customize…', '', '', '', '', 'Auto', '']);
    assert.equal('rare_user_prompt' in (await promptGenerateParams(e.input, true)), false);
  });

  it('dismissing any prompt cancels silently', async () => {
    await assert.rejects(promptBuildParams(ui([]).input, folders), PromptCancelled);
    await assert.rejects(
      promptBuildParams(ui(['Customize…', ['Handbook'], 'English', '0.2']).input, folders),
      (e: Error) => e.name === 'Canceled',
    );
    await assert.rejects(promptBulkType(ui([]).input, 'q.csv'), PromptCancelled);
  });

  it('offers the three bulk types with explanations', async () => {
    const { input, asked } = ui(['Retrieval-based answering (rag)']);
    assert.equal(await promptBulkType(input, 'q.csv'), 'rag');
    assert.deepEqual(asked[0].items, ['Generative answer (ga)', 'Retrieval-based answering (rag)', 'General agent (rag_agent_v2)']);
  });
});
