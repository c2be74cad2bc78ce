import * as vscode from 'vscode';
import type { ContextKeys } from './commandIds';

type ContextKey = (typeof ContextKeys)[keyof typeof ContextKeys];

const values = new Map<string, unknown>();

export function setContext(key: ContextKey, value: unknown): void {
  if (values.get(key) === value) return;
  values.set(key, value);
  void vscode.commands.executeCommand('setContext', key, value);
}

export function getContext(key: ContextKey): unknown {
  return values.get(key);
}
