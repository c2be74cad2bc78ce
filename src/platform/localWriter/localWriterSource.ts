// Which writer the local service's answers use in VS Code (docs/local-service.md#writer), from the application-scoped
// settings `knowledgeDesk.local.writer` (off | vscode | endpoint) and `knowledgeDesk.local.writerModel`:
// - vscode: the model the user picked, through VS Code's language model API, served to the service by LmBridge;
// - endpoint: the OpenAI-compatible endpoint of KD_LOCAL_WRITER_URL / _MODEL / _KEY in VS Code's environment;
// - off (the default): extractive answers.
// The service gets the writer when it starts and again whenever the settings change.
import * as vscode from 'vscode';
import type { ChildWriter } from '../../core/localServiceProtocol';
import { Disposable, toDisposable } from '../lifecycle';
import type { Log } from '../logger';
import { SettingKeys, type Settings } from '../settings';
import { LmBridge, type ModelChoice } from './lmBridge';

export type WriterMode = 'off' | 'vscode' | 'endpoint';

/** A picked model may first ask the user for consent (a VS Code dialog): give it longer than an endpoint. */
const VSCODE_TIMEOUT_MS = 120_000;

export class LocalWriterSource extends Disposable {
  private readonly emitter = this._register(new vscode.EventEmitter<void>());
  /** The writer changed: send current() to the running service. */
  readonly onDidChange = this.emitter.event;
  private readonly bridge: LmBridge;
  private bridgeUrl: string | undefined;

  constructor(
    private readonly settings: Settings,
    private readonly log: Log,
  ) {
    super();
    this.bridge = new LmBridge(() => this.model(), log);
    this._register(toDisposable(() => this.bridge.dispose()));
    this._register(
      settings.onDidChange((e) => {
        if (
          e.affectsConfiguration(`knowledgeDesk.${SettingKeys.localWriter}`) ||
          e.affectsConfiguration(`knowledgeDesk.${SettingKeys.localWriterModel}`)
        )
          this.changed();
      }),
    );
    if (this.mode() === 'vscode') this.startBridge();
  }

  mode(): WriterMode {
    const mode = this.settings.get<string>(SettingKeys.localWriter, 'off');
    return mode === 'vscode' || mode === 'endpoint' ? mode : 'off';
  }

  model(): ModelChoice | undefined {
    const value = this.settings.get<unknown>(SettingKeys.localWriterModel, undefined);
    if (!value || typeof value !== 'object') return undefined;
    const { vendor, family, id } = value as Record<string, unknown>;
    const pick = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);
    const choice: ModelChoice = {};
    if (pick(vendor)) choice.vendor = pick(vendor);
    if (pick(family)) choice.family = pick(family);
    if (pick(id)) choice.id = pick(id);
    return choice;
  }

  /** The writer for the service now (undefined: extractive answers, or the bridge is still starting). */
  current(): ChildWriter | undefined {
    const mode = this.mode();
    if (mode === 'endpoint') return fromEnvironment(process.env, this.log);
    if (mode !== 'vscode') return undefined;
    if (!this.bridgeUrl) {
      this.startBridge();
      return undefined;
    }
    const m = this.model();
    const label = m?.id ? `vscode:${m.vendor ? `${m.vendor}/` : ''}${m.id}` : 'vscode';
    return { url: this.bridgeUrl, model: label, apiKey: this.bridge.key, timeoutMs: VSCODE_TIMEOUT_MS };
  }

  private changed(): void {
    if (this.mode() === 'vscode') this.startBridge();
    this.emitter.fire();
  }

  private startBridge(): void {
    if (this.bridgeUrl) return;
    this.bridge.url().then(
      (url) => {
        if (this.bridgeUrl) return;
        this.bridgeUrl = url;
        this.emitter.fire();
      },
      (error: unknown) => this.log.error(`local answers: the language model bridge did not start: ${String(error)}`),
    );
  }
}

/** KD_LOCAL_WRITER_* of VS Code's environment (as the standalone service reads them); undefined when unset or invalid. */
function fromEnvironment(env: NodeJS.ProcessEnv, log: Log): ChildWriter | undefined {
  const url = env.KD_LOCAL_WRITER_URL?.trim();
  const model = env.KD_LOCAL_WRITER_MODEL?.trim();
  if (!url || !model) {
    log.warn(
      'knowledgeDesk.local.writer is "endpoint" but KD_LOCAL_WRITER_URL and KD_LOCAL_WRITER_MODEL are not both set: answers stay extractive.',
    );
    return undefined;
  }
  const seconds = Number(env.KD_LOCAL_WRITER_TIMEOUT_S);
  return { url, model, apiKey: env.KD_LOCAL_WRITER_KEY || undefined, timeoutMs: seconds > 0 ? seconds * 1000 : undefined };
}
