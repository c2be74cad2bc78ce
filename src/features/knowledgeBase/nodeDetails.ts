import * as vscode from 'vscode';
import type { KbNode } from '../../api/schemas/kbNodes';
import type { IngestionStatus } from '../../api/schemas/kbOps';
import { isFileNode } from '../../api/values';
import { formatNumber, formatSize } from '../../platform/l10n';
import { date, NODE_SCHEME, permissionSummary, stateLabel } from './kbTreeItems';

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
    return node
      ? render(node, this.steps.get(id))
      : `# ${vscode.l10n.t('Not available')}\n\n${vscode.l10n.t('Open the details again from the Knowledge Base view.')}\n`;
  }

  dispose(): void {
    this.emitter.dispose();
  }
}

export function render(node: KbNode, steps?: IngestionStatus | string): string {
  const rows: Array<[string, string]> = [
    [vscode.l10n.t('ID'), `\`${node.id}\``],
    [vscode.l10n.t('Type'), nodeTypeLabel(node.nodeType)],
    [vscode.l10n.t('Location'), [vscode.l10n.t('Knowledge base'), ...node.breadcrumbs.map((b) => b.name)].join(' › ')],
  ];
  if (isFileNode(node)) {
    const reason = (node as { processError?: string }).processError;
    rows.push([vscode.l10n.t('Processing'), `${stateLabel(node.processState)} (\`${node.processState}\`)${reason ? ` — ${reason}` : ''}`]);
    rows.push(
      [vscode.l10n.t('Status'), node.status === 'off' ? vscode.l10n.t('off') : node.status === 'on' ? vscode.l10n.t('on') : node.status],
      [vscode.l10n.t('Size'), vscode.l10n.t('{0} ({1} bytes)', formatSize(node.size), formatNumber(node.size, { useGrouping: false }))],
    );
    rows.push([vscode.l10n.t('Hashtags'), node.hashtags.length ? node.hashtags.map((h) => `#${h}`).join(' ') : '—']);
    rows.push([vscode.l10n.t('PII detected'), node.piiDetected ? vscode.l10n.t('yes') : vscode.l10n.t('no')]);
    rows.push([
      vscode.l10n.t('Properties'),
      node.properties?.length ? node.properties.map((p) => `${p.key} = ${p.value}`).join('; ') : '—',
    ]);
  }
  rows.push(
    [
      vscode.l10n.t('Created'),
      node.createdBy ? vscode.l10n.t('{0} by {1}', date(node.createdAt), node.createdBy.email) : date(node.createdAt),
    ],
    [vscode.l10n.t('Updated'), date(node.updatedAt)],
  );
  rows.push([vscode.l10n.t('Source'), node.sourceType ?? '—'], [vscode.l10n.t('Access'), permissionSummary(node)]);
  const esc = (s: string): string => s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
  return [
    `# ${node.name}`,
    '',
    `| ${vscode.l10n.t('Field')} | ${vscode.l10n.t('Value')} |`,
    '|---|---|',
    ...rows.map(([k, v]) => `| ${k} | ${esc(v)} |`),
    '',
    ...(isFileNode(node) && steps !== undefined ? renderSteps(steps) : []),
    `## ${vscode.l10n.t('Raw')}`,
    '',
    '```json',
    JSON.stringify(node, null, 2),
    '```',
    '',
  ].join('\n');
}

/** "file" and "folder" in the display language; another type as the service names it. */
function nodeTypeLabel(type: string): string {
  return type === 'file' ? vscode.l10n.t('file') : type === 'folder' ? vscode.l10n.t('folder') : type;
}

/** The processing steps table (`GET /webapi/v2/ingestion_status/{id}`), or the reason there is none. */
export function renderSteps(steps: IngestionStatus | string): string[] {
  const heading = `## ${vscode.l10n.t('Processing steps')}`;
  if (typeof steps === 'string') return [heading, '', steps, ''];
  const esc = (s: string): string => s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
  const when = (ms: number | null | undefined): string => (ms ? date(ms) : '—');
  const elapsed =
    steps.elapsed !== undefined && steps.elapsed !== null
      ? ` · ${vscode.l10n.t('{0} s', formatNumber(steps.elapsed, { minimumFractionDigits: 1, maximumFractionDigits: 1, useGrouping: false }))}`
      : '';
  const lines = [heading, '', `${vscode.l10n.t('Overall: {0}', `**${esc(steps.status)}**`)}${elapsed}`, ''];
  if (!steps.steps.length) return [...lines, vscode.l10n.t('The service reported no steps.'), ''];
  return [
    ...lines,
    `| ${vscode.l10n.t('Step')} | ${vscode.l10n.t('Status')} | ${vscode.l10n.t('Started')} | ${vscode.l10n.t('Ended')} |`,
    '|---|---|---|---|',
    ...steps.steps.map(
      (s) =>
        `| ${esc(s.name)}${s.subLabel ? ` (${esc(s.subLabel)})` : ''} | ${esc(s.status)} | ${when(s.startedAt)} | ${when(s.endedAt)} |`,
    ),
    '',
  ];
}
