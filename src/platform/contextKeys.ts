import * as vscode from 'vscode';

/** Context keys used in `when` clauses of package.json. */
export const ContextKeys = {
  hasKey: 'knowledgeDesk.hasKey',
  connectionState: 'knowledgeDesk.connectionState',
  region: 'knowledgeDesk.region',
} as const;

const values = new Map<string, unknown>();

export function setContext(key: string, value: unknown): void {
  if (values.get(key) === value) return;
  values.set(key, value);
  void vscode.commands.executeCommand('setContext', key, value);
}

export function getContext(key: string): unknown {
  return values.get(key);
}
