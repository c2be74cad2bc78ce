// Tree badges follow the service's last word about a document, with no Refresh: a document listed while it
// processes (uploaded by someone else, the samples seeded at start, or processing when the window opened) is
// followed by the processing watcher, and any listing that brings a new state tells VS Code to ask for the
// badge again. The local service holds processing (POST /_local/processing, a test route), so a document is
// reliably seen "processing" first.
import * as assert from 'node:assert/strict';
import type { ApiClient } from '../../src/api/client';
import type { FileNode, KbNode } from '../../src/api/schemas/kbNodes';
import type { KnowledgeDeskTestApi } from '../../src/testApi';
import { nodeUri } from '../../src/features/knowledgeBase/kbTreeItems';
import type { KbElement, NodeElement } from '../../src/features/knowledgeBase/kbTreeModel';
import { getApi, useService, waitFor } from './support/host';
import * as vscode from 'vscode';

const NAMES = ['0-badge-window.md', '0-badge-refresh.md'];

describe('Knowledge Base badges follow processing without Refresh', () => {
  let api: KnowledgeDeskTestApi;
  let client: ApiClient;
  let decorated: string[] = [];
  let sub: vscode.Disposable;

  const hold = async (on: boolean) => {
    const ep = api.localService.current!;
    const res = await fetch(`${ep.url}/_local/processing`, {
      method: 'POST',
      headers: { 'API-KEY': ep.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ hold: on }),
    });
    assert.equal(res.status, 200, await res.text());
  };
  const tree = () => api.knowledgeBase.tree;
  const badge = (node: KbNode) => tree().provideFileDecoration(nodeUri(node))?.badge;
  /** The element of `id` at the top level, loading further pages (the service is shared by every suite). */
  const listed = async (id: string): Promise<NodeElement | undefined> => {
    for (;;) {
      const kids: KbElement[] = await tree().getChildren();
      const found = kids.find((e): e is NodeElement => e.kind === 'node' && e.node.id === id);
      if (found) return found;
      const more = kids.find((e) => e.kind === 'loadMore');
      if (!more) return undefined;
      await vscode.commands.executeCommand('knowledgeDesk.kb.loadMore', more);
    }
  };
  const upload = async (name: string) =>
    (
      await client.kbNodes.upload({
        file: { data: `# ${name}\n\nBadges follow processing.`, contentType: 'text/markdown' },
        fileName: name,
      })
    )[0];
  const removeOurs = async () => {
    for (const name of NAMES)
      for (const n of (await client.kbNodes.search({ searchTerm: name, limit: 100 })).nodes)
        if (n.name === name) await client.kbNodes.delete(n.id).catch(() => undefined);
  };
  /** Waits until the tree holds the document completed, without a badge, and VS Code was told since `mark`. */
  const badgeGone = (node: KbNode, mark: number) =>
    waitFor(
      () =>
        (api.knowledgeBase.element(node.id)?.node as FileNode | undefined)?.processState === 'completed' &&
        badge(node) === undefined &&
        decorated.slice(mark).includes(nodeUri(node).toString()),
      `the badge of ${node.name} to go once processing ends, VS Code told so`,
      30_000,
      () =>
        JSON.stringify({
          state: (api.knowledgeBase.element(node.id)?.node as FileNode | undefined)?.processState,
          badge: badge(node),
          told: decorated.slice(mark).includes(nodeUri(node).toString()),
        }),
    );

  before(async () => {
    api = await getApi();
    client = await useService(api);
    await vscode.commands.executeCommand('knowledgeDesk.knowledgeBase.focus');
    sub = tree().onDidChangeFileDecorations((uris) => {
      for (const uri of uris) decorated.push(uri.toString());
    });
    await removeOurs();
  });
  afterEach(async () => {
    await hold(false);
    decorated = [];
  });
  after(async () => {
    sub.dispose();
    await removeOurs();
    await tree().refresh();
  });

  it('a document processing when the window opened: the watcher picks it up from the listing, the badge goes when it is ready', async () => {
    await hold(true);
    const node = await upload(NAMES[0]);
    // What a window opening now would do: its tree lists the knowledge base for the first time.
    api.knowledgeBase.listAfresh();
    const element = await listed(node.id);
    assert.ok(element, `${node.name} is listed`);
    assert.equal((element.node as FileNode).processState, 'initializing');
    assert.equal(badge(node), '⋯', 'processing: the orange badge');
    assert.equal(api.knowledgeBase.isWatching(node.id), true, 'the watcher follows it from the listing');
    const mark = decorated.length;
    await hold(false);
    await badgeGone(node, mark);
  });

  it('a listing that brings a finished state (Refresh) has VS Code ask for the badge again', async () => {
    await hold(true);
    const node = await upload(NAMES[1]);
    await tree().refresh();
    assert.ok(await listed(node.id));
    assert.equal(badge(node), '⋯');
    await hold(false);
    await waitFor(async () => {
      const n = (await client.kbNodes.search({ searchTerm: node.name, limit: 10 })).nodes.find((x) => x.id === node.id);
      return (n as FileNode | undefined)?.processState === 'completed';
    }, 'the service to finish it');
    const mark = decorated.length;
    await tree().refresh();
    await badgeGone(node, mark);
  });
});
