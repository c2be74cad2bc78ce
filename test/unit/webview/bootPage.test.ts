import assert from 'node:assert/strict';
import { chatProtocol } from '../../../src/features/answers/chat/protocol';
import { analyticsProtocol } from '../../../src/features/qna/analytics/protocol';
import { qaEditorProtocol } from '../../../src/features/qna/editor/protocol';
import { citationProtocol } from '../../../src/features/answers/citations/protocol';
import { retrievalProtocol } from '../../../src/features/answers/retrieval/protocol';
import { PAGE_PROBLEM_MAX_CHARS, parseIncoming, type PageProtocol } from '../../../src/platform/webview/protocol';
import { FakeVsCodeApi, loadPage, makeWindow, type El, type Win } from './support/page';

interface BootModule {
  bootPage(
    protocol: PageProtocol,
    create: (messenger: unknown) => { start(app: El): void },
    options: { win: Win; vscode: FakeVsCodeApi },
  ): unknown;
}
const { bootPage } = loadPage<BootModule>('src/webview/shared/bootPage');

const protocols: PageProtocol[] = [chatProtocol, analyticsProtocol, qaEditorProtocol, citationProtocol, retrievalProtocol];

describe('bootPage (the start of every webview page)', () => {
  it('every page protocol accepts the shared pageProblem notification and refuses a bad one', () => {
    for (const p of protocols) {
      const ok = parseIncoming({ kind: 'notify', type: 'pageProblem', payload: { kind: 'csp', message: 'x' } }, p.toHost);
      assert.equal(ok.ok, true, p.name);
      const bad = parseIncoming({ kind: 'notify', type: 'pageProblem', payload: { kind: 'warning', message: 'x' } }, p.toHost);
      assert.equal(bad.ok, false, p.name);
      const long = parseIncoming(
        { kind: 'notify', type: 'pageProblem', payload: { kind: 'error', message: 'x'.repeat(PAGE_PROBLEM_MAX_CHARS + 1) } },
        p.toHost,
      );
      assert.equal(long.ok, false, `${p.name}: over-long message`);
    }
  });

  it('starts the controller on #app after the messenger exists, and reports uncaught errors cut to the limit', () => {
    const win = makeWindow('<main id="app"></main>');
    const api = new FakeVsCodeApi();
    const started: El[] = [];
    let gotMessenger: unknown;
    bootPage(
      chatProtocol,
      (messenger) => {
        gotMessenger = messenger;
        return { start: (app) => started.push(app) };
      },
      { win, vscode: api },
    );
    assert.ok(gotMessenger, 'create received the messenger');
    assert.deepEqual(
      started.map((a) => a.id),
      ['app'],
    );
    win.dispatchEvent(new win.ErrorEvent('error', { message: 'boom '.repeat(1_000) }));
    const problems = api.sent('notify', 'pageProblem');
    assert.equal(problems.length, 1);
    assert.equal(problems[0].payload.kind, 'error');
    assert.equal(problems[0].payload.message.length, PAGE_PROBLEM_MAX_CHARS);
    assert.ok(problems[0].payload.message.startsWith('boom boom'));
  });

  it('reports an error thrown while the controller is built (problems are watched first)', () => {
    const win = makeWindow('<main id="app"></main>');
    const api = new FakeVsCodeApi();
    assert.throws(() =>
      bootPage(
        retrievalProtocol,
        () => {
          win.dispatchEvent(new win.ErrorEvent('error', { message: 'while building' }));
          throw new Error('while building');
        },
        { win, vscode: api },
      ),
    );
    assert.deepEqual(
      api.sent('notify', 'pageProblem').map((m) => m.payload),
      [{ kind: 'error', message: 'while building' }],
    );
  });
});
