// A feature's panels of one kind, behind a host built on first use (a command, or a panel VS Code restores
// after a restart): the host and its page protocol load then, not at activation.
import type * as vscode from 'vscode';
import type { z } from 'zod';
import type { Log } from '../logger';
import { registerPanelSerializer } from './panelRegistration';

export interface PanelHost<S extends z.ZodTypeAny> extends vscode.Disposable {
  /** Takes over a panel VS Code restored, with the state its page saved (undefined: start blank). */
  restore(panel: vscode.WebviewPanel, state: z.output<S> | undefined): void | Promise<void>;
}

export interface LazyPanelHostOptions<S extends z.ZodTypeAny, T> {
  viewType: string;
  /** The saved state's schema; a function, so that the protocol loads on the first restore. */
  stateSchema: () => S;
  log: Log;
  create: () => T;
}

export class LazyPanelHost<S extends z.ZodTypeAny, T extends PanelHost<S>> implements vscode.Disposable {
  private host: T | undefined;
  private readonly serializer: vscode.Disposable;

  constructor(private readonly options: LazyPanelHostOptions<S, T>) {
    this.serializer = registerPanelSerializer(options.viewType, options.stateSchema, options.log, (panel, state) =>
      this.get().restore(panel, state),
    );
  }

  /** The host; built on first use. */
  get(): T {
    return (this.host ??= this.options.create());
  }

  dispose(): void {
    this.serializer.dispose();
    this.host?.dispose();
  }
}

/** Makes LazyPanelHosts that log to `log`: `panels(viewType, stateSchema, create)`, each loaded on first use. */
export function lazyPanels(log: Log) {
  return <S extends z.ZodTypeAny, T extends PanelHost<S>>(viewType: string, stateSchema: () => S, create: () => T): LazyPanelHost<S, T> =>
    new LazyPanelHost({ viewType, stateSchema, log, create });
}
