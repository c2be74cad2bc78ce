// Final checks of the model test: the knowledge base walked through the children index (each listed node
// must name the folder it was listed under), the store's node count, the search index (every document is
// found by its unique word, dead words find nothing) and every Q&A with its counts, all against the model.
import assert from 'node:assert/strict';
import { request } from 'undici';
import type { ApiClient } from '../../../../src/api/client';
import type { KbModel } from './kbModel';

export async function adminInfo(url: string, apiKey: string): Promise<{ counts: Record<string, number> }> {
  const res = await request(`${url}/_local/info`, { headers: { 'API-KEY': apiKey } });
  return (await res.body.json()) as { counts: Record<string, number> };
}

interface SeenNode {
  parentId: string | null;
  name: string;
  nodeType: string;
  size?: number;
  hashtags?: string[];
  status?: string;
  processState?: string;
}

export async function walkTree(api: ApiClient): Promise<Map<string, SeenNode>> {
  const seen = new Map<string, SeenNode>();
  const queue: Array<string | null> = [null];
  while (queue.length) {
    const folder = queue.shift()!;
    for (let offset = 0; ; offset += 100) {
      const page = await api.kbNodes.search({ parentFolderIds: [folder], offset, limit: 100 });
      for (const n of page.nodes) {
        const parentId = n.parentFolder?.id ?? null;
        assert.equal(parentId, folder, `${n.id} is listed under ${folder} but its record names ${parentId} (children index ≠ store)`);
        assert.ok(!seen.has(n.id), `${n.id} listed twice`);
        const f = n as { size?: number; hashtags?: string[]; status?: string; processState?: string };
        seen.set(n.id, {
          parentId,
          name: n.name,
          nodeType: n.nodeType,
          size: f.size,
          hashtags: f.hashtags,
          status: f.status,
          processState: f.processState,
        });
        if (n.nodeType === 'folder') queue.push(n.id);
      }
      if (page.nodes.length < 100) break;
    }
  }
  return seen;
}

export function expectedNodes(model: KbModel): Map<string, SeenNode> {
  const out = new Map<string, SeenNode>();
  for (const n of model.nodes.values()) {
    out.set(
      n.id,
      n.nodeType === 'folder'
        ? {
            parentId: n.parentId,
            name: n.name,
            nodeType: 'folder',
            size: undefined,
            hashtags: undefined,
            status: undefined,
            processState: undefined,
          }
        : {
            parentId: n.parentId,
            name: n.name,
            nodeType: 'file',
            size: n.size,
            hashtags: n.hashtags,
            status: n.status ?? 'on',
            processState: 'completed',
          },
    );
  }
  return out;
}

export async function verifyAgainstModel(
  api: ApiClient,
  model: KbModel,
  info: { counts: Record<string, number> },
  context: string,
): Promise<void> {
  const seen = await walkTree(api);
  const expected = expectedNodes(model);
  const diff: string[] = [];
  for (const [id, want] of expected) {
    const got = seen.get(id);
    if (!got) diff.push(`missing ${id} ${JSON.stringify(want)}`);
    else if (JSON.stringify(got) !== JSON.stringify(want)) diff.push(`${id}: service ${JSON.stringify(got)} model ${JSON.stringify(want)}`);
  }
  for (const id of seen.keys()) if (!expected.has(id)) diff.push(`unexpected ${id} ${JSON.stringify(seen.get(id))}`);
  assert.deepEqual(diff.slice(0, 10), [], `${context}: ${diff.length} node differences`);
  assert.equal(info.counts.nodes, expected.size, `${context}: the store holds nodes the children index does not list`);

  const files = [...model.nodes.values()].filter((n) => n.nodeType === 'file');
  assert.equal(info.counts['retrieval.documents'], files.length, `${context}: search index documents ≠ documents`);
  // Every document is counted above; its word is looked up for an even sample of at most 250 (time).
  const step = Math.max(1, Math.ceil(files.length / 250));
  for (const file of files.filter((_, i) => i % step === 0)) {
    const hits = await api.answers.retrieve({ question: file.token!, maxDocumentClues: 3 });
    // An off document (toggle_documents) is left out of retrieval; an on one is found.
    assert.equal(
      hits.some((h) => h.kb_id === file.id),
      file.status !== 'off',
      `${context}: ${file.id} (${file.status ?? 'on'}) by its word ${file.token}: found ${hits.map((h) => h.kb_id).join(', ') || 'nothing'}`,
    );
  }
  for (const token of [...model.deadTokens].filter((t) => !files.some((f) => f.token === t)).slice(0, 40)) {
    const hits = await api.answers.retrieve({ question: token, maxDocumentClues: 3 });
    const stale = hits.filter((h) => new RegExp(`\\b${token}\\b`).test(h.text));
    assert.deepEqual(
      stale.map((h) => ({ id: h.kb_id, now: model.nodes.get(h.kb_id)?.token })),
      [],
      `${context}: replaced or deleted content ${token} is still indexed`,
    );
  }

  const listed = await listFaqs(api, context);
  const wantFaqs = new Map(
    [...model.faqs.values()].map((f) => {
      const c = model.counts(f);
      return [f.id, { question: f.question, answer: f.answer, hashtags: f.hashtags, status: f.status, agent: c.agent, user: c.user }];
    }),
  );
  assert.deepEqual(Object.fromEntries(listed), Object.fromEntries(wantFaqs), `${context}: Q&As`);
}

export interface SeenFaq {
  question: string;
  answer: string;
  hashtags: string[];
  status: 'on' | 'off';
  agent: unknown;
  user: unknown;
}

/**
 * Every Q&A as the list shows it, with its status from the on/off filter (the list does not carry it). The
 * two filters must split the list exactly: each Q&A in one of them, nothing else.
 */
export async function listFaqs(api: ApiClient, context: string): Promise<Map<string, SeenFaq>> {
  const listed = new Map<string, SeenFaq>();
  for (let offset = 0; ; offset += 100) {
    const page = await api.faq.list({ offset, limit: 100, format: 'text' });
    for (const r of page.results)
      listed.set(r.id, {
        question: r.question,
        answer: r.answer,
        hashtags: r.hashtags ?? [],
        status: 'off',
        agent: r.agentFeedback,
        user: r.userFeedback,
      });
    if (page.results.length < 100) break;
  }
  const on = (await api.faq.filter({ isUsed: true, limit: 1000 })).results.map((r) => r.id);
  const off = (await api.faq.filter({ isUsed: false, limit: 1000 })).results.map((r) => r.id);
  assert.deepEqual(
    [...on, ...off].sort(),
    [...listed.keys()].sort(),
    `${context}: the on and off filters do not split the Q&A list (on ${on.length}, off ${off.length}, listed ${listed.size})`,
  );
  for (const id of on) listed.get(id)!.status = 'on';
  return listed;
}
