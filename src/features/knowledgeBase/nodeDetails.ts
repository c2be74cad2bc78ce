import * as vscode from 'vscode';
import type { KbNode } from '../../api/schemas/kbNodes';
import { isFileNode } from '../../api/values';
import { date, formatSize, NODE_SCHEME, permissionSummary, stateLabel } from './kbTreeItems';

/** Read-only Markdown view of a node's fields (Show Details). */
export class NodeDetailsProvider implements vscode.TextDocumentContentProvider {
  private readonly nodes = new Map<string, KbNode>();
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

  provideTextDocumentContent(uri: vscode.Uri): string {
    const node = this.nodes.get(uri.path.split('/')[1]);
    return node ? render(node) : '# Not available\n\nOpen the details again from the Knowledge Base view.\n';
  }

  dispose(): void {
    this.emitter.dispose();
  }
}

export function render(node: KbNode): string {
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
    '## Raw',
    '',
    '```json',
    JSON.stringify(node, null, 2),
    '```',
    '',
  ].join('\n');
}
