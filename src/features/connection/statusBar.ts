import * as vscode from 'vscode';
import { CommandIds } from '../../platform/commandIds';
import { Disposable } from '../../platform/lifecycle';
import type { ConnectionManager } from '../../platform/connection/connectionManager';
import type { ConnectionState, ConnectionStatus } from '../../platform/connection/connectionStatus';
import { regionLabel } from '../../platform/regionLabels';

// Functions, not strings: vscode.l10n.t must run after activation has the bundle (and stay literal calls for `npm run l10n`).
const LOOK: Record<ConnectionState, { icon: string; text: () => string; background?: string }> = {
  idle: { icon: '$(circle-large-outline)', text: () => vscode.l10n.t('idle') },
  checking: { icon: '$(sync~spin)', text: () => vscode.l10n.t('connecting') },
  starting: { icon: '$(sync~spin)', text: () => vscode.l10n.t('starting…') },
  connected: { icon: '$(database)', text: () => vscode.l10n.t('connected') },
  noKey: { icon: '$(key)', text: () => vscode.l10n.t('no key'), background: 'statusBarItem.warningBackground' },
  unreachable: { icon: '$(debug-disconnect)', text: () => vscode.l10n.t('unreachable'), background: 'statusBarItem.warningBackground' },
  restarting: { icon: '$(sync~spin)', text: () => vscode.l10n.t('restarting'), background: 'statusBarItem.warningBackground' },
  unauthorized: { icon: '$(lock)', text: () => vscode.l10n.t('unauthorized'), background: 'statusBarItem.errorBackground' },
  misconfigured: { icon: '$(gear)', text: () => vscode.l10n.t('not configured'), background: 'statusBarItem.warningBackground' },
  error: { icon: '$(error)', text: () => vscode.l10n.t('error'), background: 'statusBarItem.errorBackground' },
};

/** The active connection's name and state; a click opens Switch Connection, or starts Knowledge Desk while it is idle. */
export class ConnectionStatusBar extends Disposable {
  readonly item: vscode.StatusBarItem;

  constructor(connection: ConnectionManager) {
    super();
    this.item = this._register(vscode.window.createStatusBarItem('knowledgeDesk.connection', vscode.StatusBarAlignment.Left, 50));
    this.item.name = vscode.l10n.t('Knowledge Desk Connection');
    this.render(connection.status);
    this._register(connection.onDidChangeStatus((s) => this.render(s)));
    this.item.show();
  }

  private render(status: ConnectionStatus): void {
    const look = LOOK[status.state];
    // The connection's name (the default ones are named after their region: Local, US, JA, Custom).
    const region = status.connection?.name ?? regionLabel(status.region);
    const state = look.text();
    this.item.text = `${look.icon} ${vscode.l10n.t('Knowledge Desk: {0} · {1}', region, state)}`;
    this.item.backgroundColor = look.background ? new vscode.ThemeColor(look.background) : undefined;
    const md = new vscode.MarkdownString(undefined, true);
    md.appendMarkdown(`${vscode.l10n.t('**Knowledge Desk** — {0}: {1}', region, state)}\n\n`);
    if (status.baseUrl) md.appendMarkdown(`${vscode.l10n.t('Service: {0}', `\`${status.baseUrl}\``)}\n\n`);
    const why = status.problem ?? status.detail;
    if (why && status.state !== 'connected') md.appendText(`${why}\n\n`);
    if (status.state === 'idle') {
      md.appendMarkdown(
        status.region === 'local'
          ? vscode.l10n.t('The local service starts when you first use Knowledge Desk in this window. Click to start it now.')
          : vscode.l10n.t('The connection is checked when you first use Knowledge Desk in this window. Click to check it now.'),
      );
    } else {
      md.appendMarkdown(vscode.l10n.t('Click to switch connections.'));
    }
    this.item.command = status.state === 'idle' ? CommandIds.checkConnection : CommandIds.switchConnection;
    this.item.tooltip = md;
    this.item.accessibilityInformation = { label: vscode.l10n.t('Knowledge Desk {0} {1}', region, state) };
  }
}
