import * as vscode from 'vscode';
import type { KbNode } from '../../api/schemas/kbNodes';
import type { IngestionStatus } from '../../api/schemas/kbOps';
import { isFileNode } from '../../api/values';
import { date, formatSize, NODE_SCHEME, permissionSummary, stateLabel } from './kbTreeItems';

/** Read-only Markdown view of a node's fields (Show Details). */
export class NodeDetailsProvider implements vscode.TextDocumentContentProvider {
  private readonly nodes = new Map<string, KbNode>();
  /** Processing steps per node (`ingestion_status`), or why they are not shown. */
  private readonly steps = new Map<string, IngestionStatus | string>();
  private readonly emitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.emitter.event;

  uriFor(node: KbNode): vscode.Uri {
    return vscode.Uri.from({ scheme: `${NODE_SCHEME}-details`, path: `/${node.id}/${node.name}.md` });
  }

  /** Remembers the node and refreshes an open details view of it. */
  set(node: KbNode): vscode.Uri {
    this.nodes.set(node.id, node);
    const uri = this.uriFor(node);
    this.emitter.fire(uri);
    return uri;
  }

  /** Shows the processing steps of a node in its open details view. */
  setSteps(node: KbNode, steps: IngestionStatus | string): void {
    this.steps.set(node.id, steps);
    this.set(this.nodes.get(node.id) ?? node);
  }

  /** Whether a details view of `nodeId` is open (live updates stop when it is closed). */
  isOpen(nodeId: string): boolean {
    const node = this.nodes.get(nodeId);
    if (!node) return false;
    const uri = this.uriFor(node).toString();
    return vscode.workspace.textDocuments.some((d) => d.uri.toString() === uri && !d.isClosed);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const id = uri.path.split('/')[1];
    const node = this.nodes.get(id);
    return node ? render(node, this.steps.get(id)) : '# Not available\n\nOpen the details again from the Knowledge Base view.\n';
  }

  dispose(): void {
    this.emitter.dispose();
  }
}

export function render(node: KbNode, steps?: IngestionStatus | string): string {
  const rows: Array<[string, string]> = [
    ['ID', `\`${node.id}\``],
    ['Type', node.nodeType],
    ['Location', ['Knowledge base', ...node.breadcrumbs.map((b) => b.name)].join(' › ')],
  ];
  if (isFileNode(node)) {
    const reason = (node as { processError?: string }).processError;
    rows.push(['Processing', `${stateLabel(node.processState)} (\`${node.processState}\`)${reason ? ` — ${reason}` : ''}`]);
    rows.push(['Status', node.status], ['Size', `${formatSize(node.size)} (${node.size} bytes)`]);
    rows.push(['Hashtags', node.hashtags.length ? node.hashtags.map((h) => `#${h}`).join(' ') : '—']);
    rows.push(['PII detected', node.piiDetected ? 'yes' : 'no']);
    rows.push(['Properties', node.properties?.length ? node.properties.map((p) => `${p.key} = ${p.value}`).join('; ') : '—']);
  }
  rows.push(
    ['Created', `${date(node.createdAt)}${node.createdBy ? ` by ${node.createdBy.email}` : ''}`],
    ['Updated', date(node.updatedAt)],
  );
  rows.push(['Source', node.sourceType ?? '—'], ['Access', permissionSummary(node)]);
  const esc = (s: string): string => s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
  return [
    `# ${node.name}`,
    '',
    '| Field | Value |',
    '|---|---|',
    ...rows.map(([k, v]) => `| ${k} | ${esc(v)} |`),
    '',
    ...(isFileNode(node) && steps !== undefined ? renderSteps(steps) : []),
    '## Raw',
    '',
    '```json',
    JSON.stringify(node, null, 2),
    '```',
    '',
  ].join('\n');
}

/** The processing steps table (`GET /webapi/v2/ingestion_status/{id}`), or the reason there is none. */
export function renderSteps(steps: IngestionStatus | string): string[] {
  if (typeof steps === 'string') return ['## Processing steps', '', steps, ''];
  const esc = (s: string): string => s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
  const when = (ms: number | null | undefined): string => (ms ? date(ms) : '—');
  const elapsed = steps.elapsed !== undefined && steps.elapsed !== null ? ` · ${steps.elapsed.toFixed(1)} s` : '';
  const lines = ['## Processing steps', '', `Overall: **${esc(steps.status)}**${elapsed}`, ''];
  if (!steps.steps.length) return [...lines, 'The service reported no steps.', ''];
  return [
    ...lines,
    '| Step | Status | Started | Ended |',
    '|---|---|---|---|',
    ...steps.steps.map(
      (s) =>
        `| ${esc(s.name)}${s.subLabel ? ` (${esc(s.subLabel)})` : ''} | ${esc(s.status)} | ${when(s.startedAt)} | ${when(s.endedAt)} |`,
    ),
    '',
  ];
}
