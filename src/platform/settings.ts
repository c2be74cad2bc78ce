import * as vscode from 'vscode';
import type { Identity } from '../api/identity';
import { isRegion, type Region } from '../core/regions';
import { Disposable } from './lifecycle';

export const SECTION = 'knowledgeDesk';

export const SettingKeys = {
  region: 'region',
  customBaseUrl: 'custom.baseUrl',
  customNluUrl: 'custom.nluUrl',
  agentEmail: 'identity.agentEmail',
  userEmail: 'identity.userEmail',
  ownUserId: 'identity.ownUserId',
  requestTimeoutSeconds: 'requestTimeoutSeconds',
  maxRetries: 'maxRetries',
  logRawStream: 'logRawStream',
  localMaxUploadMb: 'local.maxUploadMb',
  uploadConcurrency: 'upload.concurrency',
  uploadOverwritePolicy: 'upload.overwritePolicy',
  blobStoragePath: 'upload.blobStoragePath',
  qnaAutoRegisterCandidates: 'qna.autoRegisterCandidates',
  qnaRecordSelections: 'qna.recordSearchSelections',
  qnaImportConcurrency: 'qna.importConcurrency',
  /** Lets answers show https images (the pages' CSP and sanitizer follow it). */
  allowRemoteImages: 'webview.allowRemoteImages',
} as const;
export type SettingKey = (typeof SettingKeys)[keyof typeof SettingKeys];

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
    return this.config.get<T>(key, fallback);
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
