import { normalizeHashtags } from '../../core/hashtags';
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { badRequest, HttpError, notFound } from '../http/errors';
import type { BlobStore } from '../store/blobs';
import { fileNameProblem, freeName, normalizeName } from './fileNames';
import type { KbStore } from './kbStore';
import { defaultAgentPermission, defaultUserPermission, type Creator, type NodeRecord } from './nodeRecord';
import type { Ingest, IncomingFile } from './uploadOptions';
import { readZipToTemp, ZipImportError } from './zipImport';

export interface Outcome {
  node: NodeRecord;
  action: 'created' | 'overwritten' | 'skipped' | 'suffix_added';
}

/** Called for every document whose content changed and must be (re)processed. */
export type ProcessRequest = (nodeId: string) => void;

/**
 * Knowledge-base writes of the local service, with the upload outcomes of docs/api.md#upload-outcomes: identical
 * file → skipped; same name, other content → overwritten (isOverwrite) or a suffixed copy;
 * a ZIP → a new folder holding its entries; otherwise created.
 */
export class KbService {
  constructor(
    readonly store: KbStore,
    private readonly blobs: BlobStore,
    private readonly process: ProcessRequest,
    private readonly limits: { maxUploadBytes: number },
  ) {}

  folderOrRoot(id: string | null | undefined, field = 'targetFolderId'): string | null {
    if (!id) return null;
    const folder = this.store.get(id);
    if (!folder) throw badRequest(`${field}: folder not found: ${id}`, field);
    if (folder.nodeType !== 'folder') throw badRequest(`${field}: ${id} is a document, not a folder`, field);
    return folder.id;
  }

  async upload(file: Ingest): Promise<Outcome[]> {
    const fileName = normalizeName(file.options.fileName);
    const problem = fileNameProblem(fileName);
    if (problem) {
      await rm(file.tempPath, { force: true });
      throw badRequest(problem, 'fileName');
    }
    let parentId: string | null;
    try {
      parentId = this.folderOrRoot(file.options.targetFolderId);
    } catch (error) {
      await rm(file.tempPath, { force: true });
      throw error;
    }
    if (/\.zip$/i.test(fileName)) return this.uploadZip({ ...file, options: { ...file.options, fileName } }, parentId);
    // Content-addressed: storing the bytes needs no lock (an identical blob is simply shared). The name
    // decision and its journal write then run in one synchronous span (journal.ts), so two uploads of one
    // name cannot both be "created", and the folder is checked again: it may have gone meanwhile.
    const release = this.blobs.hold(file.sha256);
    try {
      const stored = await this.blobs.putFile(file.tempPath, { hash: file.sha256, size: file.size });
      const placed = this.placeFile({ ...file, options: { ...file.options, fileName } }, this.folderOrRoot(parentId), stored);
      await placed.written;
      return [placed.outcome];
    } finally {
      release();
    }
  }

  /** Synchronous from reading the siblings to the commit; `written` resolves once it is durable. */
  private placeFile(
    file: Ingest,
    parentId: string | null,
    stored: { hash: string; size: number },
  ): { outcome: Outcome; written?: Promise<void> } {
    const name = file.options.fileName;
    const siblings = this.store.childrenOf(parentId);
    const sameName = siblings.filter((n) => n.name === name);
    const identical = sameName.find((n) => n.nodeType === 'file' && n.size === stored.size && n.blob === stored.hash);
    if (identical) return { outcome: { node: identical, action: 'skipped' } };
    // Two same-named files (a move can make them) — the one with the smallest id is overwritten, so the choice
    // does not depend on the order of the children index, which a restart rebuilds differently.
    const existing = sameName.filter((n) => n.nodeType === 'file').sort((a, b) => (a.id < b.id ? -1 : 1))[0];
    if (existing && file.options.isOverwrite) {
      const node: NodeRecord = {
        ...existing,
        ...this.optionFields(file, existing),
        ...newContent(stored),
      };
      return { outcome: { node, action: 'overwritten' }, written: this.writeAndProcess([node]) };
    }
    const finalName = sameName.length ? freeName(name, (n) => siblings.some((s) => s.name === n)) : name;
    const node = this.newFile(file, parentId, finalName, stored);
    return { outcome: { node, action: sameName.length ? 'suffix_added' : 'created' }, written: this.writeAndProcess([node]) };
  }

  /** Commits (synchronously visible) and queues processing of the files once the write is durable. */
  private async writeAndProcess(nodes: NodeRecord[]): Promise<void> {
    await this.store.write(nodes);
    for (const node of nodes) if (node.nodeType === 'file') this.process(node.id);
  }

  private async uploadZip(file: Ingest, parentId: string | null): Promise<Outcome[]> {
    let contents;
    try {
      contents = await readZipToTemp(file.tempPath, {
        tempPath: () => this.blobs.tempPath(),
        maxEntryBytes: this.limits.maxUploadBytes,
        signal: file.signal,
      });
    } catch (error) {
      if (error instanceof ZipImportError) throw new HttpError(error.status, error.message, { field: 'file' });
      throw error;
    } finally {
      await rm(file.tempPath, { force: true });
    }
    if (!contents.files.length) {
      throw badRequest(
        `The ZIP holds no files${
          contents.skipped.length
            ? ` (skipped: ${contents.skipped
                .map((k) => k.name)
                .slice(0, 3)
                .join(', ')})`
            : ''
        }.`,
        'file',
      );
    }
    const releases = contents.files.map((entry) => this.blobs.hold(entry.sha256));
    try {
      const stored = [];
      for (const entry of contents.files) stored.push(await this.blobs.putFile(entry.tempPath, { hash: entry.sha256, size: entry.size }));
      // From here to the commit nothing is awaited: the name is decided on the folder as it is now.
      const target = this.folderOrRoot(parentId);
      const base = file.options.fileName.replace(/\.zip$/i, '') || 'archive';
      const siblings = this.store.childrenOf(target);
      const root = this.newFolder(
        freeName(base, (n) => siblings.some((s) => s.name === n)),
        target,
        file.creator,
        'zip',
      );
      const folders = new Map<string, NodeRecord>([['', root]]);
      for (const segments of contents.folders) this.folderFor(segments, folders, file.creator);
      const outcomes: Outcome[] = [{ node: root, action: 'created' }];
      const nodes: NodeRecord[] = [];
      for (const [i, entry] of contents.files.entries()) {
        const parent = this.folderFor(entry.segments.slice(0, -1), folders, file.creator);
        const node = this.newFile(file, parent.id, entry.segments[entry.segments.length - 1], stored[i]);
        nodes.push(node);
        outcomes.push({ node, action: 'created' });
      }
      await this.writeAndProcess([...folders.values(), ...nodes]);
      return outcomes;
    } finally {
      releases.forEach((release) => release());
      await Promise.all(contents.files.map((f) => rm(f.tempPath, { force: true })));
    }
  }

  private folderFor(segments: string[], folders: Map<string, NodeRecord>, creator: Creator | null): NodeRecord {
    const key = segments.join('/');
    const known = folders.get(key);
    if (known) return known;
    const parent = this.folderFor(segments.slice(0, -1), folders, creator);
    const folder = this.newFolder(segments[segments.length - 1], parent.id, creator, 'zip');
    folders.set(key, folder);
    return folder;
  }

  /** Swaps a document's file, keeping hashtags, permissions and properties; processing starts again. */
  async replace(nodeId: string, file: IncomingFile, options: { resetClueFeedbacks?: boolean } = {}): Promise<NodeRecord> {
    if (this.store.get(nodeId)?.nodeType !== 'file') {
      await rm(file.tempPath, { force: true });
      throw notFound(`Document not found: ${nodeId}`);
    }
    const release = this.blobs.hold(file.sha256);
    try {
      const stored = await this.blobs.putFile(file.tempPath, { hash: file.sha256, size: file.size });
      // Read again after the await: a move or another replace may have landed while the file was stored.
      const existing = this.store.get(nodeId);
      if (existing?.nodeType !== 'file') throw notFound(`Document not found: ${nodeId}`);
      const node: NodeRecord = {
        ...existing,
        ...newContent(stored),
        ...(options.resetClueFeedbacks ? { clueFeedbackResetAt: Date.now() } : {}),
      };
      await this.writeAndProcess([node]);
      return node;
    } finally {
      release();
    }
  }

  /** A folder made from a path (ZIP uploads, seeding); the folder operations are in folderOps. */
  async createFolder(name: string, parentId: string | null, creator: Creator | null, sourceType: string): Promise<NodeRecord> {
    const folder = this.newFolder(name, parentId, creator, sourceType);
    await this.store.write([folder]);
    return folder;
  }

  private newFolder(name: string, parentId: string | null, creator: Creator | null, sourceType: string | null): NodeRecord {
    return {
      ...newNode('folder', name, parentId, creator),
      agentPermission: defaultAgentPermission(),
      userPermission: defaultUserPermission(),
      sourceType,
    };
  }

  private newFile(file: Ingest, parentId: string | null, name: string, stored: { hash: string; size: number }): NodeRecord {
    return {
      ...newNode('file', name, parentId, file.creator),
      sourceType: file.sourceType,
      status: 'on',
      blob: stored.hash,
      size: stored.size,
      processState: 'initializing',
      ingestQueuedAt: Date.now(),
      piiDetected: false,
      ...this.optionFields(file),
    };
  }

  /** Hashtags, permissions and properties from the request; what it leaves out stays as it was. */
  private optionFields(
    file: Ingest,
    existing?: NodeRecord,
  ): Pick<NodeRecord, 'hashtags' | 'agentPermission' | 'userPermission' | 'properties'> {
    const o = file.options;
    const filters = o.accessUserFilters ?? [];
    const given = (v: unknown): boolean => v !== undefined;
    return {
      hashtags: o.hashtags ? normalizeHashtags(o.hashtags) : (existing?.hashtags ?? []),
      properties: o.properties ?? existing?.properties ?? null,
      agentPermission:
        given(o.accessAgents) || given(o.accessPermissionGroups) || !existing
          ? {
              accessAgents: o.accessAgents ?? null,
              accessPermissionGroups: o.accessPermissionGroups?.map((g) => ({ ...g, permissionGroupName: g.permissionGroupId })) ?? null,
              viewAccessToAgent: o.viewAccessToAgent,
            }
          : existing.agentPermission,
      userPermission:
        filters.length || !existing
          ? {
              ownUserIds: pick(filters, 'CUSTOMER_ID'),
              customerGroups: pick(filters, 'CUSTOMER_GROUP'),
              viewAccessToUser: o.viewAccessToUser,
            }
          : existing.userPermission,
    };
  }
}

function pick(filters: Array<{ variableName: string; value: string }>, name: string): string[] | null {
  const values = filters.filter((f) => f.variableName === name).map((f) => f.value);
  return values.length ? values : null;
}

/** What replacing a file's content changes: the new blob, and everything derived from the old one is dropped until it is processed again. */
function newContent(stored: { hash: string; size: number }): Partial<NodeRecord> {
  return {
    blob: stored.hash,
    size: stored.size,
    updatedAt: Date.now(),
    processState: 'initializing',
    processError: undefined,
    ingestQueuedAt: Date.now(),
    ingestStartedAt: undefined,
    ingestEndedAt: undefined,
    pageCount: undefined,
    textBlob: undefined,
  };
}

/** The fields every new node starts with: a fresh id, its place, and who made it when. */
function newNode(
  nodeType: NodeRecord['nodeType'],
  name: string,
  parentId: string | null,
  createdBy: Creator | null,
): Pick<NodeRecord, 'id' | 'name' | 'nodeType' | 'parentId' | 'createdAt' | 'updatedAt' | 'createdBy'> {
  const now = Date.now();
  return { id: randomUUID(), name, nodeType, parentId, createdAt: now, updatedAt: now, createdBy };
}
