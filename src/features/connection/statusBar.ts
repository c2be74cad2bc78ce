import * as vscode from 'vscode';
import { REGION_INFO } from '../../core/regions';
import { CommandIds } from '../../platform/commandIds';
import { Disposable } from '../../platform/lifecycle';
import type { ConnectionManager, ConnectionState, ConnectionStatus } from './connectionManager';

const LOOK: Record<ConnectionState, { icon: string; text: string; background?: string }> = {
  idle: { icon: '$(circle-large-outline)', text: 'idle' },
  checking: { icon: '$(sync~spin)', text: 'connecting' },
  connected: { icon: '$(database)', text: 'connected' },
  noKey: { icon: '$(key)', text: 'no key', background: 'statusBarItem.warningBackground' },
  unreachable: { icon: '$(debug-disconnect)', text: 'unreachable', background: 'statusBarItem.warningBackground' },
  unauthorized: { icon: '$(lock)', text: 'unauthorized', background: 'statusBarItem.errorBackground' },
  misconfigured: { icon: '$(gear)', text: 'not configured', background: 'statusBarItem.warningBackground' },
  error: { icon: '$(error)', text: 'error', background: 'statusBarItem.errorBackground' },
};

/** Region and connection state; a click opens Select Region, or starts Knowledge Desk while it is idle. */
export class ConnectionStatusBar extends Disposable {
  readonly item: vscode.StatusBarItem;

  constructor(connection: ConnectionManager) {
    super();
    this.item = this._register(vscode.window.createStatusBarItem('knowledgeDesk.connection', vscode.StatusBarAlignment.Left, 50));
    this.item.name = 'Knowledge Desk Connection';
    this.render(connection.status);
    this._register(connection.onDidChangeStatus((s) => this.render(s)));
    this.item.show();
  }

  private render(status: ConnectionStatus): void {
    const look = LOOK[status.state];
    const region = REGION_INFO[status.region].label;
    this.item.text = `${look.icon} Knowledge Desk: ${region} · ${look.text}`;
    this.item.backgroundColor = look.background ? new vscode.ThemeColor(look.background) : undefined;
    const md = new vscode.MarkdownString(undefined, true);
    md.appendMarkdown(`**Knowledge Desk** — ${region}: ${look.text}\n\n`);
    if (status.baseUrl) md.appendMarkdown(`Service: \`${status.baseUrl}\`\n\n`);
    if (status.detail && status.state !== 'connected') md.appendText(`${status.detail}\n\n`);
    if (status.state === 'idle') {
      md.appendMarkdown(
        status.region === 'local'
          ? 'The local service starts when you first use Knowledge Desk in this window. Click to start it now.'
          : 'The connection is checked when you first use Knowledge Desk in this window. Click to check it now.',
      );
    } else {
      md.appendMarkdown('Click to select the region.');
    }
    this.item.command = status.state === 'idle' ? CommandIds.checkConnection : CommandIds.selectRegion;
    this.item.tooltip = md;
    this.item.accessibilityInformation = { label: `Knowledge Desk ${region} ${look.text}` };
  }
}
