import * as vscode from 'vscode';
import type { Identity } from '../api/identity';
import { isRegion, type Region } from '../core/regions';
import { SettingKeys, USER_ONLY_SETTINGS, type SettingKey } from '../core/settingKeys';
import { Disposable } from './lifecycle';

export const SECTION = 'knowledgeDesk';

export { SettingKeys, USER_ONLY_SETTINGS, type SettingKey } from '../core/settingKeys';

const userOnly = new Set<string>(USER_ONLY_SETTINGS);

/** A workspace or folder value of a user-only setting: never used, reported once. */
export interface IgnoredWorkspaceValue {
  setting: string;
  /** Where it was found: a folder's `.vscode/settings.json` or the workspace file. */
  file: string;
}

/** Typed access to the extension's settings and VS Code's proxy settings. */
export class Settings extends Disposable {
  private readonly emitter = this._register(new vscode.EventEmitter<vscode.ConfigurationChangeEvent>());
  readonly onDidChange = this.emitter.event;

  constructor() {
    super();
    this._register(
      vscode.workspace.onDidChangeConfiguration((e) =>
        e.affectsConfiguration(SECTION) || e.affectsConfiguration('http') ? this.emitter.fire(e) : undefined,
      ),
    );
  }

  private get config(): vscode.WorkspaceConfiguration {
    return vscode.workspace.getConfiguration(SECTION);
  }

  get<T>(key: SettingKey, fallback: T): T {
    if (!userOnly.has(key)) return this.config.get<T>(key, fallback);
    const values = this.config.inspect<T>(key);
    return values?.globalValue ?? values?.defaultValue ?? fallback;
  }

  /** Workspace and folder values of user-only settings that VS Code reports (they are not used). */
  ignoredValues(): IgnoredWorkspaceValue[] {
    const found: IgnoredWorkspaceValue[] = [];
    const workspaceFile = vscode.workspace.workspaceFile;
    const folders = vscode.workspace.workspaceFolders ?? [];
    for (const key of USER_ONLY_SETTINGS) {
      const setting = `${SECTION}.${key}`;
      if (this.config.inspect(key)?.workspaceValue !== undefined) {
        found.push({
          setting,
          file: workspaceFile?.fsPath ?? vscode.Uri.joinPath(folders[0]?.uri ?? vscode.Uri.file('/'), '.vscode/settings.json').fsPath,
        });
      }
      for (const folder of folders) {
        if (vscode.workspace.getConfiguration(SECTION, folder.uri).inspect(key)?.workspaceFolderValue !== undefined)
          found.push({ setting, file: vscode.Uri.joinPath(folder.uri, '.vscode', 'settings.json').fsPath });
      }
    }
    return found;
  }

  async set(key: SettingKey, value: unknown, target = vscode.ConfigurationTarget.Global): Promise<void> {
    await this.config.update(key, value, target);
  }

  get region(): Region {
    const value = this.get<string>(SettingKeys.region, 'local');
    return isRegion(value) ? value : 'local';
  }

  get identity(): Identity {
    return {
      agentEmail: this.get<string>(SettingKeys.agentEmail, '') || undefined,
      userEmail: this.get<string>(SettingKeys.userEmail, '') || undefined,
      ownUserId: this.get<string>(SettingKeys.ownUserId, '') || undefined,
    };
  }

  get custom(): { baseUrl?: string; nluUrl?: string } {
    return { baseUrl: this.get<string>(SettingKeys.customBaseUrl, ''), nluUrl: this.get<string>(SettingKeys.customNluUrl, '') };
  }

  get timeoutMs(): number {
    return clamp(this.get<number>(SettingKeys.requestTimeoutSeconds, 60), 1, 3600) * 1000;
  }

  get maxRetries(): number {
    return clamp(this.get<number>(SettingKeys.maxRetries, 2), 0, 10);
  }

  get proxy(): { proxy?: string; strictSSL: boolean; noProxy: string[] } {
    const http = vscode.workspace.getConfiguration('http');
    return {
      proxy: http.get<string>('proxy') || undefined,
      strictSSL: http.get<boolean>('proxyStrictSSL', true),
      noProxy: http.get<string[]>('noProxy', []),
    };
  }
}

function clamp(value: number, min: number, max: number): number {
  return Number.isFinite(value) ? Math.min(max, Math.max(min, value)) : min;
}
