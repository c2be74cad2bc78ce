// Several local projects (issue 27) in the real host: Add Connection → Local project starts a second project with its
// own data folder and key; switching shows each project's Knowledge Base and Q&As; a Q&A editor opened on one project
// keeps saving there after a switch and says when its connection is removed, and so do a citation viewer, analytics
// and a chat; Remove keeps or deletes the folder.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { KbElement } from '../../src/features/knowledgeBase/kbTreeModel';
import type { ChatPanel } from '../../src/features/answers/chat/chatPanel';
import { CHAT_VIEW_TYPE, type ChatSnapshot } from '../../src/features/answers/chat/protocol';
import type { CitationPanel } from '../../src/features/answers/citations/citationPanel';
import { CITATION_VIEW_TYPE } from '../../src/features/answers/citations/protocol';
import type { AnalyticsPanel } from '../../src/features/qna/analytics/analyticsPanel';
import { ANALYTICS_VIEW_TYPE, type AnalyticsData } from '../../src/features/qna/analytics/protocol';
import { defaultQuery } from '../../src/features/qna/analytics/analyticsData';
import type { QaEditorPanel } from '../../src/features/qna/editor/qaEditorPanel';
import { QA_EDITOR_VIEW_TYPE } from '../../src/features/qna/editor/protocol';
import type { QnaElement } from '../../src/features/qna/qnaTreeModel';
import type { KnowledgeDeskTestApi } from '../../src/testApi';
import {
  fillInWorkbench,
  getApi,
  resetWorkbench,
  runCommand,
  screenshot,
  useService,
  waitFor,
  waitForPage,
  workbenchRead,
  workbenchShows,
} from './support/host';

const FOLDER = 'Only in the project Beta';
const QUESTION = 'Which project answers this, Beta?';
const names = (els: KbElement[]): string[] => els.flatMap((e) => (e.kind === 'node' ? [e.node.name] : []));
const questions = (els: QnaElement[]): string[] => els.flatMap((e) => (e.kind === 'qa' ? [e.item.question] : []));

describe('Local projects: two local projects as two connections', () => {
  let api: KnowledgeDeskTestApi;

  before(async () => {
    api = await getApi();
    await useService(api);
  });
  after(async () => {
    const store = api.connection.store;
    await store.setActive('local');
    for (const c of [...store.connections]) if (c.name.startsWith('Beta')) await store.remove(c.id);
    await resetWorkbench(api);
  });

  const connected = (id: string) =>
    waitFor(() => api.connection.status.state === 'connected' && api.connection.active.id === id, `connected to ${id}`);
  const kbShows = async (name: string) => names(await api.knowledgeBase.tree.getChildren()).includes(name);
  const qnaShows = async (question: string) => {
    const tree = api.qna.tree;
    const groups = await tree.getChildren();
    return (await Promise.all(groups.map((g) => tree.getChildren(g)))).flatMap(questions).includes(question);
  };

  it('adds a local project with its own folder and key, and the trees show each project’s content after a switch', async () => {
    await vscode.commands.executeCommand('knowledgeDesk.knowledgeBase.focus');
    await runCommand(api, 'knowledgeDesk.addConnection', ['Beta project', 'local']);
    const store = api.connection.store;
    const beta = store.byName('Beta project')!;
    assert.deepEqual(beta.target, { kind: 'local', project: beta.id });
    await connected(beta.id);
    const folder = path.join(api.context.globalStorageUri.fsPath, 'local-projects', beta.id);
    const keys = JSON.parse(fs.readFileSync(path.join(folder, 'keys.json'), 'utf8')) as { apiKey: string };
    assert.equal(await api.secrets.get('apiKey', beta.id), keys.apiKey, 'the project’s own key, adopted on first use');
    assert.notEqual(keys.apiKey, await api.secrets.get('apiKey', 'local'));
    // The default project keeps its folder.
    assert.equal(api.localService.dataDir, path.join(api.context.globalStorageUri.fsPath, 'local-service'));

    const client = await api.connection.getClient();
    await client.folders.create({ name: FOLDER });
    await client.faq.register({ question: QUESTION, answer: 'Beta.', status: 'on' });
    await api.knowledgeBase.tree.refresh();
    await waitFor(() => kbShows(FOLDER), 'Beta’s folder in the tree');
    await vscode.commands.executeCommand('knowledgeDesk.qna.focus');
    // Registered through the client, not the editor: the tree is told by its Refresh.
    await vscode.commands.executeCommand('knowledgeDesk.qna.refresh');
    await waitFor(() => qnaShows(QUESTION), 'Beta’s Q&A in the Q&A tree');

    await runCommand(api, 'knowledgeDesk.switchConnection', [], 'local');
    await connected('local');
    await waitFor(async () => !(await qnaShows(QUESTION)), 'the Q&A tree to show Local');
    await vscode.commands.executeCommand('knowledgeDesk.knowledgeBase.focus');
    await waitFor(async () => !(await kbShows(FOLDER)), 'the tree to show Local');
  });

  it('Switch Connection: typing "Local" finds the local projects too (their descriptions), in the real quick pick', async () => {
    const rows = '.quick-input-widget .quick-input-list .monaco-list-row';
    // The real quick pick (no scripted answers): VS Code filters it as a person types.
    api.setUserInput(undefined);
    const picking = Promise.resolve(vscode.commands.executeCommand('knowledgeDesk.switchConnection'));
    try {
      // Listed once every connection's state was checked (up to 8 s each, in parallel).
      assert.ok(await workbenchShows(`${rows}:has-text("Beta project")`, 60_000), 'the list with Beta project');
      await fillInWorkbench('.quick-input-widget .quick-input-box input', 'Local');
      // A row reads its label, then its description and state (the label first, with no space before the description).
      let texts: string[] = [];
      const startsWith = (label: string) => texts.some((t) => t.trim().startsWith(label));
      await waitFor(
        async () => {
          texts = (await workbenchRead(rows)) ?? [];
          return startsWith('Beta project') && startsWith('Local') && !startsWith('US') && !startsWith('JA');
        },
        'Local and the local project Beta listed for "Local", not US or JA',
        20_000,
        () => JSON.stringify(texts),
      );
      await screenshot('switch-connection-typed-local', { waitForSelector: `${rows}:has-text("Beta project")` });
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      await picking;
    }
    assert.equal(api.connection.active.id, 'local', 'closing the list switches nothing');
  });

  it('the upload prompts name the connection the files go to, once there is more than the default connections', async () => {
    const titles: string[] = [];
    const cancel = (p: { options: unknown }) => void titles.push((p.options as { title: string }).title);
    await runCommand(api, 'knowledgeDesk.kb.uploadToTopLevel', [cancel]);
    const file = vscode.Uri.file(path.join(api.context.extensionPath, 'package.json'));
    await runCommand(api, 'knowledgeDesk.uploadToKnowledgeBase', [cancel], file, [file]);
    assert.deepEqual(titles, ['Upload files to the top level — Local', 'Upload package.json to… — Local']);
  });

  it('a Q&A editor opened on Beta keeps saving to Beta after a switch, names it, and says so when Beta is removed', async () => {
    const store = api.connection.store;
    const beta = store.byName('Beta project')!;
    await runCommand(api, 'knowledgeDesk.switchConnection', [], beta.id);
    await connected(beta.id);
    const betaClient = await api.connection.getClient();
    const editor = (await vscode.commands.executeCommand<QaEditorPanel>('knowledgeDesk.qna.new'))!;
    try {
      await runCommand(api, 'knowledgeDesk.switchConnection', [], 'local');
      await connected('local');
      await waitFor(
        () => editor.panel.title.endsWith(' — Beta project'),
        'the editor to name Beta',
        10_000,
        () => editor.panel.title,
      );
      // The editor's client is Beta's, though Local is active: the Q&A it saves is Beta's.
      await waitForPage(editor, 'the Q&A editor');
      const savedId = new Promise<string>((resolve) => {
        const once = api.qnaEditors.onDidSave((e) => (once.dispose(), resolve(e.id)));
      });
      await editor.channel.request('drive', {
        fill: { question: 'Saved from an editor opened on Beta', answer: 'Kept in Beta.' },
        click: 'save',
      });
      const id = await savedId;
      assert.equal((await betaClient.faq.get(id)).question, 'Saved from an editor opened on Beta');
      const localClient = await api.connection.getClient();
      await assert.rejects(localClient.faq.get(id), 'Local does not have it');

      // A Q&A citation of a chat pinned to Beta (Local active): its editor opens on Beta, and shows Beta's Q&A.
      const { id: citedId } = await betaClient.faq.register({ question: 'Cited by a chat on Beta', answer: 'Beta only.', status: 'on' });
      const cited = (await vscode.commands.executeCommand<QaEditorPanel>('knowledgeDesk.answers.openCitation', {
        citation: { source: 'qna', faqId: citedId },
        connectionId: beta.id,
      }))!;
      try {
        await waitFor(
          () => cited.current?.values.question === 'Cited by a chat on Beta',
          'the cited Q&A read from Beta',
          10_000,
          () => `${cited.panel.title} ${JSON.stringify(cited.current ?? null)}`,
        );
        assert.ok(cited.panel.title.endsWith(' — Beta project'), cited.panel.title);
      } finally {
        cited.dispose();
      }

      // After a restart (Local active): an editor comes back on Beta, by the connection its page kept.
      const raw = vscode.window.createWebviewPanel(QA_EDITOR_VIEW_TYPE, 'Q&A', vscode.ViewColumn.Active, { enableScripts: true });
      api.qnaEditors.restore(raw, { target: { kind: 'existing', id: citedId }, connection: { id: beta.id, name: 'Beta project' } });
      const restored = api.qnaEditors.panels.find((p) => p.panel === raw);
      assert.ok(restored, 'the restored editor');
      try {
        await waitFor(
          () => restored.current?.values.question === 'Cited by a chat on Beta',
          'the restored editor to read Beta’s Q&A',
          10_000,
          () => `${restored.panel.title} ${JSON.stringify(restored.current ?? null)}`,
        );
        assert.ok(restored.panel.title.endsWith(' — Beta project'), restored.panel.title);
      } finally {
        restored.dispose();
      }

      await runCommand(api, 'knowledgeDesk.removeConnection', ['Beta project', 'Remove Connection'], undefined);
      await waitFor(
        () => editor.panel.title.endsWith(' — Beta project (removed)'),
        'the editor to say Beta is gone',
        10_000,
        () => editor.panel.title,
      );
      // Kept: the default answer keeps the data folder.
      assert.ok(fs.existsSync(path.join(api.context.globalStorageUri.fsPath, 'local-projects', beta.id, 'keys.json')));
    } finally {
      editor.dispose();
    }
  });

  it('a citation viewer opened on Beta keeps reading Beta’s document after a switch, names it, and says so when Beta is removed', async () => {
    await runCommand(api, 'knowledgeDesk.addConnection', ['Beta citations', 'local']);
    const beta = api.connection.store.byName('Beta citations')!;
    await connected(beta.id);
    const client = await api.connection.getClient();
    const passage = 'Only the Beta citations project holds this passage.';
    const [node] = await client.kbNodes.upload({
      file: { data: `# Beta\n\n${passage}\n` },
      fileName: 'beta-citation.md',
      isOverwrite: true,
    });
    await waitFor(
      async () =>
        (await client.kbNodes.search({ searchTerm: 'beta-citation', limit: 10 })).nodes.some(
          (n) => n.id === node.id && 'processState' in n && n.processState === 'completed',
        ),
      'the document to be processed',
      60_000,
    );
    let viewer = (await vscode.commands.executeCommand<CitationPanel>('knowledgeDesk.answers.openDocument', {
      kbId: node.id,
      pageNo: 1,
      title: 'beta-citation.md',
    }))!;
    try {
      await runCommand(api, 'knowledgeDesk.switchConnection', [], 'local');
      await connected('local');
      await waitFor(
        () => viewer.panel.title.endsWith(' — Beta citations'),
        'the viewer to name Beta',
        10_000,
        () => viewer.panel.title,
      );
      // Resolved again after the switch: still Beta's document (Local has no such id).
      await viewer.load();
      const view = viewer.current.view;
      assert.equal(view.kind, 'text', JSON.stringify(view).slice(0, 300));
      assert.ok(view.kind === 'text' && view.pages.some((p) => p.text.includes(passage)));

      // After a restart (Local active): the viewer comes back on Beta, by the connection its page kept.
      const state = { target: viewer.current.target, pageNo: 1, connection: { id: beta.id, name: 'Beta citations' } };
      viewer.dispose();
      const raw = vscode.window.createWebviewPanel(CITATION_VIEW_TYPE, 'Citation', vscode.ViewColumn.Active, { enableScripts: true });
      api.citations.restore(raw, state);
      viewer = api.citations.panels.find((p) => p.panel === raw)!;
      assert.ok(viewer, 'the restored viewer');
      await viewer.load();
      assert.ok(viewer.panel.title.endsWith(' — Beta citations'), viewer.panel.title);
      const again = viewer.current.view;
      assert.ok(again.kind === 'text' && again.pages.some((p) => p.text.includes(passage)), JSON.stringify(again).slice(0, 300));

      await runCommand(api, 'knowledgeDesk.removeConnection', ['Beta citations', 'Remove Connection'], undefined);
      await waitFor(
        () => viewer.panel.title.endsWith(' — Beta citations (removed)'),
        'the viewer to say Beta is gone',
        10_000,
        () => viewer.panel.title,
      );
      await viewer.load();
      const gone = viewer.current.view;
      assert.ok(gone.kind === 'error' && gone.message.includes('"Beta citations" this panel shows was removed'), JSON.stringify(gone));
    } finally {
      viewer.dispose();
    }
  });

  it('an analytics panel opened on Beta keeps loading Beta’s searches after a switch, names it, and says so when Beta is removed', async () => {
    await runCommand(api, 'knowledgeDesk.addConnection', ['Beta analytics', 'local']);
    const beta = api.connection.store.byName('Beta analytics')!;
    await connected(beta.id);
    const betaQuery = 'a search only the Beta analytics project saw';
    await (await api.connection.getClient()).faq.search({ query: betaQuery, autoRegisterCandidates: false });
    let shown = (await vscode.commands.executeCommand<AnalyticsPanel>('knowledgeDesk.qna.showAnalytics'))!;
    const nextLoad = () =>
      new Promise<AnalyticsData>((resolve) => {
        const once = shown.onDidLoad((d) => (once.dispose(), resolve(d)));
      });
    let onLocal: AnalyticsPanel | undefined;
    try {
      await nextLoad();
      await runCommand(api, 'knowledgeDesk.switchConnection', [], 'local');
      await connected('local');
      await waitFor(
        () => shown.panel.title.endsWith(' — Beta analytics'),
        'the panel to name Beta',
        10_000,
        () => shown.panel.title,
      );
      // Show Analytics now opens the active connection's panel, and leaves Beta's as it is.
      onLocal = (await vscode.commands.executeCommand<AnalyticsPanel>('knowledgeDesk.qna.showAnalytics'))!;
      assert.notEqual(onLocal, shown);
      // Closed again: Beta's page, hidden by it, comes back and loads again, still from Beta.
      const reloaded = nextLoad();
      onLocal.dispose();
      shown.reveal();
      assert.ok(
        (await reloaded).searches.some((r) => r.question === betaQuery),
        'Beta’s search history',
      );

      // After a restart (Local active): the panel comes back on Beta, by the connection its page kept.
      shown.dispose();
      const raw = vscode.window.createWebviewPanel(ANALYTICS_VIEW_TYPE, 'Q&A Analytics', vscode.ViewColumn.Active, {
        enableScripts: true,
      });
      api.analytics.restore(raw, { query: defaultQuery(), connection: { id: beta.id, name: 'Beta analytics' } });
      shown = api.analytics.all.find((p) => p.panel === raw)!;
      assert.ok(shown, 'the restored panel');
      assert.ok(shown.panel.title.endsWith(' — Beta analytics'), shown.panel.title);
      assert.ok(
        (await nextLoad()).searches.some((r) => r.question === betaQuery),
        'Beta’s search history in the restored panel',
      );

      await runCommand(api, 'knowledgeDesk.removeConnection', ['Beta analytics', 'Remove Connection'], undefined);
      await waitFor(
        () => shown.panel.title.endsWith(' — Beta analytics (removed)'),
        'the panel to say Beta is gone',
        10_000,
        () => shown.panel.title,
      );
      // Loading again says which connection is gone, instead of showing the active one's figures.
      shown.refresh();
      const gone = (e: { command: string; message: string }) =>
        e.command === 'Q&A analytics' && e.message.includes('"Beta analytics" this panel shows was removed');
      await waitFor(() => api.probe.errorsShown.all().some(gone), 'the error naming the removed connection');
    } finally {
      shown.dispose();
      onLocal?.dispose();
    }
  });

  it('a chat opened on Beta asks Beta after a switch, names it, opens its citations there, and says so when Beta is removed', async () => {
    await runCommand(api, 'knowledgeDesk.addConnection', ['Beta chat', 'local']);
    const beta = api.connection.store.byName('Beta chat')!;
    await connected(beta.id);
    const client = await api.connection.getClient();
    const question = 'What is the meeting room of the Beta chat project called?';
    const [node] = await client.kbNodes.upload({
      file: { data: '# Beta chat rooms\n\nThe meeting room of the Beta chat project is called Aquamarine Seven.\n' },
      fileName: 'beta-chat-rooms.md',
      isOverwrite: true,
    });
    await waitFor(
      async () =>
        (await client.answers.generate({ query: question, includeCitations: true })).citations.some((c) => c.knowledgeBaseId === node.id),
      'Beta’s document to be answerable',
      60_000,
    );
    let chat = (await vscode.commands.executeCommand<ChatPanel>('knowledgeDesk.answers.ask'))!;
    let onLocal: ChatPanel | undefined;
    try {
      await waitForPage(chat, 'the chat panel');
      await runCommand(api, 'knowledgeDesk.switchConnection', [], 'local');
      await connected('local');
      await waitFor(
        () => chat.panel.title === 'Ask Knowledge Desk — Beta chat',
        'the chat to name Beta',
        10_000,
        () => chat.panel.title,
      );
      // Asked with Local active: the answer comes from Beta's document, which Local does not have.
      const turn = await chat.ask(question);
      assert.ok(turn?.status === 'done', `the answer finished: ${turn?.status} ${turn?.error ?? ''}`);
      assert.match(turn.answer, /Aquamarine Seven/);
      const cited = turn.citations.find((c) => c.knowledgeBaseId === node.id);
      assert.ok(cited, `cites Beta’s document: ${JSON.stringify(turn.citations)}`);
      assert.ok(
        !(await (await api.connection.getClient()).answers.generate({ query: question, includeCitations: true })).citations.some(
          (c) => c.knowledgeBaseId === node.id,
        ),
        'Local does not know the document',
      );
      assert.equal(chat.conversation.turns.at(-1)?.id, turn.id, 'the conversation is Beta’s');
      await screenshot('chat-pinned-to-beta', { waitForSelector: '.tab.active:has-text("Ask Knowledge Desk — Beta chat")' });

      // Its citation opens in Beta's viewer: the document is read from Beta.
      const snapshot = (): Promise<ChatSnapshot> => chat.channel.request('snapshot', {});
      await waitFor(async () => (await snapshot()).turns.find((t) => t.id === turn.id)?.sources.length, 'the sources list');
      const before = api.citations.last;
      await chat.channel.request('drive', { clickCitation: { turnId: turn.id, index: cited.index } });
      const viewer = await waitFor(() => (api.citations.last !== before ? api.citations.last : undefined), 'the citation viewer', 30_000);
      try {
        assert.equal(viewer.panel.title.endsWith(' — Beta chat'), true, viewer.panel.title);
        await viewer.load();
        const view = viewer.current.view;
        assert.ok(view.kind === 'text' && view.pages.some((p) => p.text.includes('Aquamarine Seven')), JSON.stringify(view).slice(0, 300));
      } finally {
        viewer.dispose();
      }

      // Ask Knowledge Desk now opens the active connection's chat, and leaves Beta's as it is.
      onLocal = (await vscode.commands.executeCommand<ChatPanel>('knowledgeDesk.answers.ask'))!;
      assert.notEqual(onLocal, chat);
      assert.equal(api.chat.current, onLocal);
      assert.equal(onLocal.panel.title, 'Ask Knowledge Desk — Local');
      assert.ok(!onLocal.conversation.turns.some((t) => t.id === turn.id), 'Local’s chat has its own conversations');

      // After a restart: the panel comes back on Beta, by the connection its page kept, with Beta's conversation.
      const state = { connection: { id: beta.id, name: 'Beta chat' }, conversationId: chat.conversation.id };
      chat.dispose();
      const raw = vscode.window.createWebviewPanel(CHAT_VIEW_TYPE, 'Ask Knowledge Desk', vscode.ViewColumn.Active, { enableScripts: true });
      chat = api.chat.restore(raw, state);
      assert.notEqual(chat, onLocal);
      assert.equal(chat.panel.title, 'Ask Knowledge Desk — Beta chat');
      assert.equal(chat.conversation.turns.at(-1)?.id, turn.id);
      await waitForPage(chat, 'the restored chat panel');

      // The palette's Export Chat and New Chat act on the chat in front (Beta's), not on the active connection's.
      const inFront = () => (chat.reveal(), waitFor(() => chat.panel.active, 'Beta’s chat in front', 10_000));
      await inFront();
      const exported = await vscode.commands.executeCommand<vscode.TextDocument | undefined>('knowledgeDesk.answers.exportChat');
      assert.ok(exported?.getText().includes(question), `Beta’s conversation exported: ${exported?.getText().slice(0, 200)}`);
      await inFront();
      const localConversation = onLocal.conversation.id;
      const fresh = await vscode.commands.executeCommand<ChatPanel>('knowledgeDesk.answers.newChat');
      assert.equal(fresh, chat, 'New Chat in Beta’s chat');
      assert.equal(chat.conversation.turns.length, 0);
      assert.equal(onLocal.conversation.id, localConversation, 'Local’s chat keeps its conversation');

      await runCommand(api, 'knowledgeDesk.removeConnection', ['Beta chat', 'Remove Connection'], undefined);
      await waitFor(
        () => chat.panel.title === 'Ask Knowledge Desk — Beta chat (removed)',
        'the chat to say Beta is gone',
        10_000,
        () => chat.panel.title,
      );
      // Asking again: not sent anywhere, said in words that name Beta and what to do, and the question stays.
      const again = 'Is the Aquamarine Seven room free today?';
      await chat.channel.request('drive', { type: again });
      await chat.channel.request('drive', { send: true });
      const shown = await waitFor(
        async () => {
          const snap = await snapshot();
          return snap.notice?.includes('"Beta chat" this chat asks was removed') ? snap : undefined;
        },
        'the notice naming the removed connection',
        10_000,
      );
      assert.match(shown.notice!, /Ask Knowledge Desk…/);
      assert.equal(shown.draft, again, 'the question is back in the box');
      assert.equal(shown.turns.length, 0, 'no new turn (in the conversation New Chat started)');
    } finally {
      chat.dispose();
      onLocal?.dispose();
    }
  });
});
