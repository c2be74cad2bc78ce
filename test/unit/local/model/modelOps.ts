// Random operations of the concurrent model test, run by one client each over the real API client. Every
// operation that committed comes back with its commit sequence number and a function that applies it to
// the model (and checks the service's answer there); rejected ones (400/404/409) must have committed nothing.
import yazl from 'yazl';
import type { ApiClient } from '../../../../src/api/client';
import { ApiConnectionError, ApiError } from '../../../../src/api/errors';
import type { KbModel } from './kbModel';
import type { SeqAgent } from './seqAgent';
import { seededRandom } from '../../../../src/core/seededRandom';

export type Random = () => number;

/** The project's seeded generator (mulberry32), so a failing run replays from its seed. */
export const prng: (seed: number) => () => number = seededRandom;

export interface Acked {
  seq: number;
  kind: string;
  apply(model: KbModel): void;
}

/** What the crash test can see of the restarted service when it decides whether a lost operation happened. */
export interface Probe {
  nodes: ReadonlyMap<string, { parentId: string | null; name: string }>;
  /** Every Q&A with its fields and its status (from the on/off filter: the list does not carry it). */
  faqs: ReadonlyMap<string, { question: string; answer: string; hashtags: string[]; status: 'on' | 'off' }>;
  votes(faqId: string, model: KbModel, voter: string, isPositive: boolean | null): boolean;
  /** The document whose content holds the word, found through the search index. */
  holder(token: string): Promise<string | undefined>;
}

/**
 * Lost updates that would only have changed the status, and had not happened. The probe once lacked the
 * status, so such an update was taken as applied whenever its answer and hashtags matched: the model then
 * held a status the service never had (seed 1341823777, "Q&As that are on").
 */
export const lostStats = { statusChangesNotApplied: 0 };

/** For an operation that got no answer: how to apply it if the restarted service shows it happened. */
export type LostResolver = (probe: Probe, model: KbModel) => Promise<((m: KbModel) => void) | undefined>;

export interface Outcome {
  kind: string;
  /** committed: acknowledged with a sequence number; rejected: 4xx, nothing committed; lost: no answer (crash). */
  result: 'committed' | 'rejected' | 'lost';
  acked?: Acked;
  lost?: LostResolver;
}

/** What the clients have seen (ids stay in the pools after deletion, so some operations hit missing ones). */
export interface Pools {
  folders: string[];
  files: Array<{ id: string; parentId: string | null; name: string; content: string }>;
  faqs: string[];
}

export interface ClientCtx {
  api: ApiClient;
  agent: SeqAgent;
  voter: string;
  random: Random;
  pools: Pools;
  /** Unique word for new content. */
  token(): string;
  /** Optional restriction (the crash test gives each client its own folder and Q&As). */
  home?: string;
}

const NAMES = ['a.txt', 'b.txt', 'c.md', 'd.txt'];
const FOLDER_NAMES = ['Reports', 'Archive', 'a.txt'];
const QUESTIONS = Array.from({ length: 24 }, (_, i) => `how do i do thing number ${i}`);
const TAGS = ['red', 'green', 'blue'];

const pick = <T>(r: Random, list: readonly T[]): T => list[Math.floor(r() * list.length)];
/** Half the time one of the latest: documents still being processed, names still contended. */
const recent = <T>(r: Random, list: readonly T[]): T =>
  r() < 0.5 ? list[Math.max(0, list.length - 1 - Math.floor(r() * 6))] : pick(r, list);
const tags = (r: Random): string[] => TAGS.filter(() => r() < 0.4);

export function contentFor(token: string, r: Random): string {
  return `Document ${token}. ${'lorem ipsum dolor '.repeat(1 + Math.floor(r() * 8))}\n`;
}

async function zipOf(name: string, content: string): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  zip.addBuffer(Buffer.from(content), name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Runs one random operation and reports what became of it. */
export async function randomOperation(c: ClientCtx): Promise<Outcome> {
  const r = c.random;
  const { pools } = c;
  const folder = (): string | null =>
    c.home ? pick(r, [c.home, ...pools.folders]) : r() < 0.3 || !pools.folders.length ? null : pick(r, pools.folders);
  const anyNode = (): string | undefined =>
    r() < 0.8 && pools.files.length ? recent(r, pools.files).id : pools.folders.length ? pick(r, pools.folders) : undefined;
  const roll = r();
  c.agent.last = undefined;
  let kind = 'none';
  let lost: LostResolver | undefined;
  try {
    if (roll < 0.24 || pools.files.length < 4) {
      kind = 'upload';
      const same = r() < 0.15 && pools.files.length && !c.home ? recent(r, pools.files) : undefined;
      const token = c.token();
      const op = same
        ? {
            folderId: same.parentId,
            name: same.name,
            content: same.content,
            token: extractToken(same.content),
            isOverwrite: r() < 0.5,
            hashtags: r() < 0.5 ? tags(r) : undefined,
          }
        : {
            folderId: folder(),
            name: pick(r, NAMES),
            content: contentFor(token, r),
            token,
            isOverwrite: r() < 0.5,
            hashtags: r() < 0.7 ? tags(r) : undefined,
          };
      lost = async (probe) => {
        const id = await probe.holder(op.token);
        const node = id ? probe.nodes.get(id) : undefined;
        return node && ((m) => m.applyUpload(op, { id: id!, name: node.name, parentId: node.parentId, action: 'unknown' }));
      };
      const nodes = await c.api.kbNodes.upload({
        file: { data: op.content, contentType: 'text/plain' },
        fileName: op.name,
        isOverwrite: op.isOverwrite,
        ...(op.folderId ? { targetFolderId: op.folderId } : {}),
        ...(op.hashtags ? { hashtags: op.hashtags } : {}),
      });
      const n = nodes[0];
      const ack = { id: n.id, name: n.name, action: String((n as { action?: unknown }).action), parentId: n.parentFolder?.id ?? null };
      pools.files.push({ id: n.id, parentId: op.folderId, name: n.name, content: op.content });
      return done(c, kind, (m) => m.applyUpload(op, ack), ack.action === 'skipped');
    }
    if (roll < 0.28) {
      kind = 'zip';
      const token = c.token();
      const op = { folderId: folder(), content: contentFor(token, r), token };
      lost = async (probe) => {
        const id = await probe.holder(op.token);
        const file = id ? probe.nodes.get(id) : undefined;
        const dir = file?.parentId ? probe.nodes.get(file.parentId) : undefined;
        if (!file || !dir) return undefined;
        const ack = (nodeId: string, n: { parentId: string | null; name: string }) => ({
          id: nodeId,
          name: n.name,
          parentId: n.parentId,
          action: 'created',
        });
        return (m) => m.applyZip(op, ack(file.parentId!, dir), ack(id!, file));
      };
      const nodes = await c.api.kbNodes.upload({
        file: { data: await zipOf('inner.txt', op.content), contentType: 'application/zip' },
        fileName: `box${Math.floor(r() * 3)}.zip`,
        ...(op.folderId ? { targetFolderId: op.folderId } : {}),
      });
      const [f, d] = nodes.map((n) => ({ id: n.id, name: n.name, action: 'created', parentId: n.parentFolder?.id ?? null }));
      pools.folders.push(f.id);
      pools.files.push({ id: d.id, parentId: f.id, name: d.name, content: op.content });
      return done(c, kind, (m) => m.applyZip(op, f, d));
    }
    if (roll < 0.38) {
      kind = 'replace';
      const target = recent(r, pools.files);
      const token = c.token();
      const op = { id: target.id, content: contentFor(token, r), token };
      lost = async (probe) => ((await probe.holder(op.token)) === op.id ? (m) => m.applyReplace(op) : undefined);
      await c.api.kbNodes.replace(op.id, { data: op.content, contentType: 'text/plain', fileName: target.name });
      target.content = op.content;
      return done(c, kind, (m) => m.applyReplace(op));
    }
    if (roll < 0.52) {
      kind = 'move';
      const ids = Array.from({ length: 1 + Math.floor(r() * 3) }, anyNode).filter((id): id is string => !!id);
      const op = { ids, targetId: folder() };
      lost = async (probe, model) => {
        // The ids this move would take to the target (present, elsewhere, not the target or its ancestor): all or none.
        const chain = new Set<string>();
        for (let id = op.targetId; id && model.nodes.has(id); id = model.nodes.get(id)!.parentId) chain.add(id);
        const movable = [...new Set(ids)].filter(
          (id) => model.nodes.has(id) && !chain.has(id) && model.nodes.get(id)!.parentId !== op.targetId,
        );
        const shown = movable.filter((id) => probe.nodes.get(id)?.parentId === op.targetId);
        if (shown.length && shown.length < movable.length)
          throw new Error(
            `move to ${op.targetId} half-applied: ${shown.join(', ')} moved, ${movable.filter((id) => !shown.includes(id)).join(', ')} did not`,
          );
        return shown.length ? (m) => m.applyMove(op) : undefined;
      };
      const res = await c.api.kbNodes.moveBulk({ targetFolderId: op.targetId, nodeIds: ids, keepCurrentPermission: true });
      const ack = { moved: res.moved_kb_node_ids, failed: res.failed_kb_node_ids };
      return done(c, kind, (m) => m.applyMove(op, ack), ack.moved.length === 0);
    }
    if (roll < 0.58) {
      kind = 'delete';
      const id = r() < 0.9 && pools.files.length ? recent(r, pools.files).id : anyNode();
      if (!id) return { kind, result: 'rejected' };
      lost = async (probe, model) => (model.nodes.has(id) && !probe.nodes.has(id) ? (m) => m.applyDelete({ id }) : undefined);
      await c.api.kbNodes.delete(id);
      return done(c, kind, (m) => m.applyDelete({ id }));
    }
    if (roll < 0.68 || !pools.faqs.length) {
      kind = 'register';
      const op = {
        question: pick(r, c.home ? QUESTIONS.map((q) => `${q} for ${c.voter}`) : QUESTIONS),
        answer: `answer ${c.token()}`,
        hashtags: tags(r),
        status: r() < 0.8 ? ('on' as const) : ('off' as const),
      };
      lost = async (probe) => {
        const hit = [...probe.faqs].find(([, f]) => f.question === op.question && f.answer === op.answer);
        return hit && ((m) => m.applyRegister(op, { id: hit[0] }));
      };
      const res = await c.api.faq.register(op);
      pools.faqs.push(res.id);
      return done(c, kind, (m) => m.applyRegister(op, res));
    }
    if (roll < 0.76) {
      kind = 'update';
      const op: { id: string; question?: string; answer?: string; hashtags?: string[]; status?: 'on' | 'off' } = {
        id: pick(r, pools.faqs),
      };
      if (r() < 0.2 && !c.home) op.question = pick(r, QUESTIONS);
      if (r() < 0.7) op.answer = `answer ${c.token()}`;
      if (r() < 0.5) op.hashtags = tags(r);
      if (r() < 0.4) op.status = r() < 0.5 ? 'on' : 'off';
      lost = async (probe, model) => {
        const now = probe.faqs.get(op.id);
        const before = model.faqs.get(op.id);
        if (!now || !before) return undefined;
        // Only the fields this update would change tell whether it happened (a status-only update that
        // turns on a Q&A that is on is invisible either way). All of them or none: never a part.
        const fields = (['question', 'answer', 'hashtags', 'status'] as const).filter(
          (key) => op[key] !== undefined && JSON.stringify(op[key]) !== JSON.stringify(before[key]),
        );
        const shown = fields.filter((key) => JSON.stringify(now[key]) === JSON.stringify(op[key]));
        if (shown.length && shown.length < fields.length)
          throw new Error(
            `update of ${op.id} half-applied: ${shown.join(', ')} changed, ${fields.filter((f) => !shown.includes(f)).join(', ')} did not`,
          );
        if (shown.length === 0 && fields.length === 1 && fields[0] === 'status') lostStats.statusChangesNotApplied++;
        return shown.length ? (m) => m.applyUpdate(op) : undefined;
      };
      await c.api.faq.update(op);
      return done(c, kind, (m) => m.applyUpdate(op));
    }
    if (roll < 0.79) {
      kind = 'deleteFaq';
      const id = pick(r, pools.faqs);
      lost = async (probe, model) => (model.faqs.has(id) && !probe.faqs.has(id) ? (m) => m.applyDeleteFaq({ id }) : undefined);
      await c.api.faq.delete(id);
      return done(c, kind, (m) => m.applyDeleteFaq({ id }));
    }
    if (roll < 0.96) {
      kind = 'vote';
      const op = { id: pick(r, pools.faqs), voter: c.voter, isPositive: r() < 0.25 ? null : r() < 0.6 };
      lost = async (probe, model) =>
        model.faqs.has(op.id) && probe.votes(op.id, model, op.voter, op.isPositive) ? (m) => m.applyVote(op) : undefined;
      await c.api.faq.feedback({ query: 'q', id: op.id, isPositive: op.isPositive });
      return done(c, kind, (m) => m.applyVote(op));
    }
    // Folders, renames and on/off (issue 14): only in the concurrent test (the crash test's clients have a
    // home folder and keep their own mix, so its seeds replay as before).
    if (!c.home && roll < 0.99) {
      const which = r();
      if (which < 0.35) {
        kind = 'createFolder';
        const op = { parentId: folder(), name: pick(r, FOLDER_NAMES) };
        const res = await c.api.folders.create({ name: op.name, parentFolderId: op.parentId });
        pools.folders.push(res.id);
        return done(c, kind, (m) => m.applyCreateFolder(op, res));
      }
      if (which < 0.7) {
        kind = 'rename';
        const id = anyNode();
        if (!id) return { kind, result: 'rejected' };
        const op = { id, name: pick(r, [...NAMES, ...FOLDER_NAMES]) };
        await c.api.kbNodes.update(op.id, { name: op.name });
        return done(c, kind, (m) => m.applyRename(op));
      }
      kind = 'toggle';
      const ids = [...new Set(Array.from({ length: 1 + Math.floor(r() * 2) }, () => recent(r, pools.files).id))];
      const op = { ids, status: r() < 0.5 ? ('off' as const) : ('on' as const) };
      await c.api.kbNodes.toggle(op.ids, op.status);
      // Setting a status a document already has commits nothing.
      return done(c, kind, (m) => m.applyToggle(op), true);
    }
    kind = 'candidates';
    const queries = [`nobody asked ${c.token()}`, pick(r, QUESTIONS)];
    const res = await c.api.faq.addCandidates(queries);
    if (res.length !== queries.length) throw new Error(`addCandidates answered ${res.length} ids for ${queries.length} queries`);
    return done(c, kind, () => undefined);
  } catch (error) {
    if (error instanceof ApiError && (error.status === 400 || error.status === 404 || error.status === 409)) {
      if (c.agent.last !== undefined) throw new Error(`${kind} was rejected (${error.status}) but committed at seq ${c.agent.last}`);
      return { kind, result: 'rejected' };
    }
    if (error instanceof ApiConnectionError) return { kind, result: 'lost', lost };
    throw error;
  }
}

function done(c: ClientCtx, kind: string, apply: (m: KbModel) => void, mayBeNoop = false): Outcome {
  const seq = c.agent.last;
  if (seq === undefined) {
    if (mayBeNoop) return { kind, result: 'rejected' };
    throw new Error(`${kind} was acknowledged without a commit sequence number`);
  }
  return { kind, result: 'committed', acked: { seq, kind, apply } };
}

export function extractToken(content: string): string {
  return /Document (\w+)\./.exec(content)![1];
}
