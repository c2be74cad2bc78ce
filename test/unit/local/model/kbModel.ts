// The sequential model of the concurrent model test: the knowledge base and the Q&As as the service
// should hold them after the acknowledged operations, applied one by one in commit order. Each `apply*`
// also checks the service's answer against what the model expected at that point, and throws if they differ.
import assert from 'node:assert/strict';

export interface ModelNode {
  id: string;
  parentId: string | null;
  name: string;
  nodeType: 'file' | 'folder';
  size?: number;
  hashtags?: string[];
  /** The unique word of the document's current content (search index checks). */
  token?: string;
  content?: string;
  /** Files: `off` after toggle_documents (left out of retrieval). */
  status?: 'on' | 'off';
  /** Order of arrival in its folder (creation or a move from another folder): the service's sibling order. */
  arrival: number;
}

export interface ModelFaq {
  id: string;
  question: string;
  answer: string;
  hashtags: string[];
  status: 'on' | 'off';
  /** voter → isPositive; voters are `agent:<email>` or `user:<id>`. */
  votes: Map<string, boolean>;
}

export interface UploadAck {
  id: string;
  name: string;
  action: string;
  parentId: string | null;
}

export class KbModel {
  readonly nodes = new Map<string, ModelNode>();
  readonly faqs = new Map<string, ModelFaq>();
  /** Tokens of contents that no document holds any more. */
  readonly deadTokens = new Set<string>();
  private arrivals = 0;

  children(parentId: string | null): ModelNode[] {
    return [...this.nodes.values()].filter((n) => n.parentId === parentId).sort((a, b) => a.arrival - b.arrival);
  }

  applyUpload(
    op: { folderId: string | null; name: string; content: string; token: string; isOverwrite: boolean; hashtags?: string[] },
    ack: UploadAck,
  ): void {
    // The answer's parentFolder is read when the answer is made, after the commit: a delete of the folder may
    // have landed in between, so the parent is the one asked for, checked against the model at this commit.
    assert.ok(op.folderId === null || this.nodes.get(op.folderId)?.nodeType === 'folder', `upload committed into a missing folder`);
    const siblings = this.children(op.folderId);
    const sameName = siblings.filter((n) => n.name === op.name);
    const size = Buffer.byteLength(op.content);
    const identical = sameName.find((n) => n.nodeType === 'file' && n.content === op.content);
    assert.equal(identical, undefined, `upload of ${op.name}: committed although an identical file was there`);
    const existing = sameName.filter((n) => n.nodeType === 'file').sort((a, b) => (a.id < b.id ? -1 : 1))[0];
    // 'unknown': an upload whose answer was lost in a crash, found in the restarted service.
    const check = (want: string): void => void (ack.action !== 'unknown' && assert.equal(ack.action, want, `upload of ${op.name}: action`));
    if (existing && op.isOverwrite) {
      check('overwritten');
      assert.equal(ack.id, existing.id, 'overwrite keeps the id');
      this.kill(existing);
      Object.assign(existing, { size, content: op.content, token: op.token, hashtags: op.hashtags ?? existing.hashtags });
      return;
    }
    check(sameName.length ? 'suffix_added' : 'created');
    assert.ok(!siblings.some((s) => s.name === ack.name), `upload: name ${ack.name} is taken`);
    if (!sameName.length) assert.equal(ack.name, op.name);
    assert.ok(!this.nodes.has(ack.id), 'upload: new id');
    this.nodes.set(ack.id, {
      id: ack.id,
      parentId: op.folderId,
      name: ack.name,
      nodeType: 'file',
      size,
      hashtags: op.hashtags ?? [],
      content: op.content,
      token: op.token,
      arrival: this.arrivals++,
    });
  }

  applyZip(op: { folderId: string | null; content: string; token: string }, folder: UploadAck, file: UploadAck): void {
    assert.ok(op.folderId === null || this.nodes.get(op.folderId)?.nodeType === 'folder', 'zip committed into a missing folder');
    assert.ok(!this.children(op.folderId).some((s) => s.name === folder.name), `zip folder name ${folder.name} is taken`);
    this.nodes.set(folder.id, { id: folder.id, parentId: op.folderId, name: folder.name, nodeType: 'folder', arrival: this.arrivals++ });
    const size = Buffer.byteLength(op.content);
    this.nodes.set(file.id, {
      id: file.id,
      parentId: folder.id,
      name: file.name,
      nodeType: 'file',
      size,
      hashtags: [],
      content: op.content,
      token: op.token,
      arrival: this.arrivals++,
    });
  }

  applyReplace(op: { id: string; content: string; token: string }): void {
    const node = this.nodes.get(op.id);
    assert.equal(node?.nodeType, 'file', `replace of ${op.id} committed but the model has no such document`);
    this.kill(node!);
    Object.assign(node!, { size: Buffer.byteLength(op.content), content: op.content, token: op.token });
  }

  /** Without `ack` (a move lost in a crash) the answer is not checked. */
  applyMove(op: { ids: string[]; targetId: string | null }, ack?: { moved: string[]; failed: string[] }): void {
    assert.ok(op.targetId === null || this.nodes.get(op.targetId)?.nodeType === 'folder', 'move committed into a missing folder');
    const chain = new Set<string>();
    for (let id = op.targetId; id; id = this.nodes.get(id)!.parentId) chain.add(id);
    const moved: string[] = [];
    const failed: string[] = [];
    for (const id of [...new Set(op.ids)]) (this.nodes.has(id) && !chain.has(id) ? moved : failed).push(id);
    if (ack) assert.deepEqual({ moved: ack.moved, failed: ack.failed }, { moved, failed }, 'move: moved and failed ids');
    for (const id of moved) {
      const node = this.nodes.get(id)!;
      if (node.parentId !== op.targetId) node.arrival = this.arrivals++;
      node.parentId = op.targetId;
    }
  }

  applyDelete(op: { id: string }): void {
    const node = this.nodes.get(op.id);
    assert.ok(node, `delete of ${op.id} committed but the model has no such node`);
    const stack = [node];
    while (stack.length) {
      const n = stack.pop()!;
      this.kill(n);
      this.nodes.delete(n.id);
      stack.push(...this.children(n.id));
    }
  }

  applyCreateFolder(op: { parentId: string | null; name: string }, ack: { id: string }): void {
    assert.ok(op.parentId === null || this.nodes.get(op.parentId)?.nodeType === 'folder', 'folder created in a missing folder');
    assert.ok(!this.children(op.parentId).some((s) => s.name === op.name), `folder ${op.name} created although the name is taken`);
    assert.ok(!this.nodes.has(ack.id), 'create folder: new id');
    this.nodes.set(ack.id, { id: ack.id, parentId: op.parentId, name: op.name, nodeType: 'folder', arrival: this.arrivals++ });
  }

  applyRename(op: { id: string; name: string }): void {
    const node = this.nodes.get(op.id);
    assert.ok(node, `rename of ${op.id} committed but the model has no such node`);
    assert.ok(!this.children(node.parentId).some((s) => s.id !== op.id && s.name === op.name), `rename to ${op.name}: the name is taken`);
    node.name = op.name;
  }

  applyToggle(op: { ids: string[]; status: 'on' | 'off' }): void {
    for (const id of op.ids) {
      const node = this.nodes.get(id);
      assert.equal(node?.nodeType, 'file', `toggle of ${id} committed but the model has no such document`);
      node!.status = op.status;
    }
  }

  applyRegister(
    op: { question: string; answer: string; hashtags: string[]; status: 'on' | 'off' },
    ack: { id: string; status?: string },
  ): void {
    const existing = [...this.faqs.values()].find((f) => f.question === op.question);
    if (ack.status !== undefined) assert.equal(ack.status, existing ? 'updated' : 'created', `register of ${op.question}`);
    if (existing) {
      assert.equal(ack.id, existing.id);
      Object.assign(existing, { answer: op.answer, hashtags: op.hashtags, status: op.status });
    } else this.faqs.set(ack.id, { id: ack.id, ...op, votes: new Map() });
  }

  applyUpdate(op: { id: string; question?: string; answer?: string; hashtags?: string[]; status?: 'on' | 'off' }): void {
    const faq = this.faqs.get(op.id);
    assert.ok(faq, `update of ${op.id} committed but the model has no such Q&A`);
    if (op.question !== undefined) {
      const other = [...this.faqs.values()].find((f) => f.question === op.question);
      assert.ok(!other || other.id === op.id, `update of ${op.id} took the question of ${other?.id}`);
    }
    for (const key of ['question', 'answer', 'hashtags', 'status'] as const)
      if (op[key] !== undefined) Object.assign(faq, { [key]: op[key] });
  }

  applyDeleteFaq(op: { id: string }): void {
    assert.ok(this.faqs.delete(op.id), `delete of Q&A ${op.id} committed but the model has no such Q&A`);
  }

  applyVote(op: { id: string; voter: string; isPositive: boolean | null }): void {
    const faq = this.faqs.get(op.id);
    assert.ok(faq, `vote on ${op.id} committed but the model has no such Q&A`);
    if (op.isPositive === null) faq.votes.delete(op.voter);
    else faq.votes.set(op.voter, op.isPositive);
  }

  counts(faq: ModelFaq): {
    agent: { positiveCount: number; negativeCount: number };
    user: { positiveCount: number; negativeCount: number };
  } {
    const out = { agent: { positiveCount: 0, negativeCount: 0 }, user: { positiveCount: 0, negativeCount: 0 } };
    for (const [voter, positive] of faq.votes) {
      const side = voter.startsWith('agent:') ? out.agent : out.user;
      if (positive) side.positiveCount++;
      else side.negativeCount++;
    }
    return out;
  }

  private kill(node: ModelNode): void {
    if (node.token) this.deadTokens.add(node.token);
  }
}
