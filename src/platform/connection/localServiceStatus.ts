import * as vscode from 'vscode';
import type { ConnectionStatus } from './connectionStatus';
import type { SupervisorEvent } from './process/supervisor';

/** The connection's status while the local service is down: restarting, or given up until "Restart Local Service". */
export function localServiceStatus(event: Exclude<SupervisorEvent, { kind: 'started' }>, baseUrl: string | undefined): ConnectionStatus {
  const detail = `the local service ${event.reason}`;
  if (event.kind === 'stopped')
    return {
      state: 'restarting',
      region: 'local',
      baseUrl,
      detail,
      problem: vscode.l10n.t('The local service stopped and is being restarted.'),
    };
  return {
    state: 'error',
    region: 'local',
    baseUrl,
    detail,
    problem: vscode.l10n.t(
      'The local service stopped {0} times in a row and was not started again. Run "{1}".',
      event.failures,
      vscode.l10n.t('Knowledge Desk: Restart Local Service'),
    ),
  };
}
