// The shared hashtag picker as the Q&A editor ("Choose…") and the Q&A filter use it: the hashtags in use with
// their counts from the real local service, and a deployment without `GET /webapi/hashtags` (404/405, a canned
// loopback server) falling back to typing. The prompts are answered by a scripted UserInput.
import assert from 'node:assert/strict';
import type { QuickPickItem } from 'vscode';
import { ApiClient } from '../../../src/api/client';
import { OfferMemory } from '../../../src/api/offers';
import { pickHashtags, spacedHashtagWarning } from '../../../src/platform/pickers/hashtagPicker';
import type { UserInput } from '../../../src/platform/userInput';
import { startCannedServer, type CannedServer } from '../support/cannedServer';
import { startTestService, type TestService } from '../support/localService';

type Prompt = {
  kind: 'many' | 'input';
  items?: readonly QuickPickItem[];
  options: { title?: string; placeHolder?: string; prompt?: string };
};

/** Answers each prompt with the next answer: labels to tick (without `$(icon)`), typed text, or undefined (cancel). */
function scripted(answers: unknown[]): UserInput & { prompts: Prompt[] } {
  const prompts: Prompt[] = [];
  const next = (p: Prompt): unknown => {
    prompts.push(p);
    if (!answers.length) throw new Error(`unexpected ${p.kind}: ${p.options.title}`);
    return answers.shift();
  };
  const plain = (label: string): string => label.replace(/^\$\([\w-]+\)\s*/, '');
  return {
    prompts,
    showInputBox: async (options) => next({ kind: 'input', options }) as string | undefined,
    showQuickPick: async () => {
      throw new Error('the hashtag picker asks with a multi-select pick');
    },
    showQuickPickMany: async <T extends QuickPickItem>(items: readonly T[], options: Prompt['options']) => {
      const labels = next({ kind: 'many', items, options }) as string[] | undefined;
      return labels?.map((l) => {
        const item = items.find((i) => plain(i.label) === l);
        if (!item) throw new Error(`"${l}" is not offered: ${items.map((i) => i.label).join(', ')}`);
        return item;
      });
    },
    showQuickPickManyWithButtons: async () => {
      throw new Error('the hashtag picker has no title buttons');
    },
    showWarningMessage: async () => undefined,
    showOpenDialog: async () => undefined,
  };
}

describe('Hashtag picker (Q&A editor and Q&A filter)', () => {
  describe('with the hashtags in use (local service)', () => {
    let t: TestService;
    before(async () => {
      t = await startTestService();
      const client = t.client();
      await client.faq.register({ question: '経費の締め日は？', answer: '毎月25日です。', status: 'on', hashtags: ['経費', 'hr'] });
      await client.faq.register({ question: 'How do I claim expenses?', answer: 'Use the form.', status: 'on', hashtags: ['経費'] });
    });
    after(() => t.stop());

    it('offers them with their counts, most used first, the current ones ticked; a current one not in use is kept', async () => {
      const ui = scripted([['#hr', '#new-one']]);
      const chosen = await pickHashtags(ui, t.client(), { title: 'Hashtags of the Q&A', current: ['hr', 'new-one'] });
      assert.deepEqual(chosen, ['hr', 'new-one'], 'unticked 経費 is not chosen');
      const items = ui.prompts[0].items!;
      assert.deepEqual(
        items.map((i) => [i.label, i.description, !!i.picked]),
        [
          ['#経費', 'used 2 times', false],
          ['#hr', 'used once', true],
          ['#new-one', 'not in use elsewhere', true],
          ['$(edit) Other hashtags…', 'type hashtags that are not listed', false],
        ],
      );
      assert.equal(ui.prompts[0].options.title, 'Hashtags of the Q&A');
    });

    it('adds typed hashtags after "Other hashtags…" (deduplicated), and returns undefined when either step is cancelled', async () => {
      const typed = scripted([['#経費', 'Other hashtags…'], '#経費, ＃policy  #new']);
      assert.deepEqual(await pickHashtags(typed, t.client(), { title: 'Filter Q&As by hashtags', prompt: 'Empty clears.' }), [
        '経費',
        'policy',
        'new',
      ]);
      assert.equal(typed.prompts[1].options.prompt, 'Empty clears.');
      assert.equal(await pickHashtags(scripted([undefined]), t.client(), { title: 'x' }), undefined);
      assert.equal(await pickHashtags(scripted([['Other hashtags…'], undefined]), t.client(), { title: 'x' }), undefined);
      assert.deepEqual(await pickHashtags(scripted([[]]), t.client(), { title: 'x', current: ['hr'] }), [], 'nothing ticked: none');
    });
  });

  describe('on a deployment without GET /webapi/hashtags', () => {
    let server: CannedServer | undefined;
    afterEach(async () => {
      await server?.close();
      server = undefined;
    });

    for (const status of [404, 405]) {
      it(`falls back to typing after a ${status}, and does not ask the deployment again`, async () => {
        server = await startCannedServer(() => ({ status, body: { errors: status === 404 ? 'Not Found' : 'Method Not Allowed' } }));
        const memory = new OfferMemory();
        const client = (): ApiClient => new ApiClient({ baseUrl: server!.url, apiKey: 'k', retry: { maxRetries: 0 }, offerMemory: memory });
        const debug: string[] = [];
        const ui = scripted([['Other hashtags…'], '#hr #経費']);
        const chosen = await pickHashtags(ui, client(), {
          title: 'Hashtags of the Q&A',
          current: ['old'],
          log: { debug: (m) => debug.push(m) },
        });
        assert.deepEqual(chosen, ['hr', '経費'], 'unticked old is dropped, the typed ones are chosen');
        assert.deepEqual(
          ui.prompts[0].items!.map((i) => i.label),
          ['#old', '$(edit) Other hashtags…'],
          'only the current ones and typing',
        );
        assert.equal(debug.length, 1, 'the reason is logged');
        const again = scripted([[]]);
        assert.deepEqual(await pickHashtags(again, client(), { title: 'x' }), []);
        assert.match(again.prompts[0].options.placeHolder ?? '', /No hashtags are in use yet/);
        assert.equal(server!.requests.length, 1, 'the missing route is remembered for the deployment');
      });
    }
  });

  it('warns while typing about a hashtag with a space ("#docs onboarding" is one hashtag), without refusing it', () => {
    assert.deepEqual(spacedHashtagWarning('#docs onboarding'), {
      message: '"docs onboarding" is one hashtag with a space; separate hashtags with commas, semicolons or #.',
      severity: 2,
    });
    for (const fine of ['#docs #onboarding', 'docs, onboarding', 'docs;onboarding', ''])
      assert.equal(spacedHashtagWarning(fine), undefined, fine);
  });
});
