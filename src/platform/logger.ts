import * as vscode from 'vscode';
import { Disposable } from './lifecycle';

export interface Log {
  trace(message: string): void;
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string | Error): void;
}

/**
 * One LogOutputChannel with `[component]` tags. Secrets registered with `redact` are masked in
 * every line: keys are never logged on purpose, this is the net under that rule.
 */
export class Logger extends Disposable {
  private readonly channel: vscode.LogOutputChannel;
  private readonly secrets = new Set<string>();

  constructor(name = 'Knowledge Desk') {
    super();
    this.channel = this._register(vscode.window.createOutputChannel(name, { log: true }));
  }

  redact(secret: string | undefined): void {
    if (secret && secret.length >= 8) this.secrets.add(secret);
  }

  scoped(component: string): Log {
    const tag = `[${component}]`;
    const line = (m: string): string => this.clean(`${tag} ${m}`);
    return {
      trace: (m) => this.channel.trace(line(m)),
      debug: (m) => this.channel.debug(line(m)),
      info: (m) => this.channel.info(line(m)),
      warn: (m) => this.channel.warn(line(m)),
      error: (m) => this.channel.error(line(typeof m === 'string' ? m : describeForLog(m))),
    };
  }

  show(): void {
    this.channel.show(true);
  }

  private clean(text: string): string {
    let out = text;
    for (const s of this.secrets) out = out.split(s).join('***');
    return out;
  }
}

/** Full error for the log: name, message, stack and the cause chain. */
export function describeForLog(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    if (current instanceof Error) {
      parts.push(depth === 0 ? (current.stack ?? `${current.name}: ${current.message}`) : `caused by: ${current.stack ?? current.message}`);
      const extra = current as Error & { status?: number; operation?: string; field?: string; code?: unknown };
      const details = [
        extra.operation && `operation=${extra.operation}`,
        extra.status && `status=${extra.status}`,
        extra.code !== undefined && `code=${String(extra.code)}`,
        extra.field && `field=${extra.field}`,
      ].filter(Boolean);
      if (details.length) parts.push(`  (${details.join(', ')})`);
      current = current.cause;
    } else {
      parts.push(String(current));
      break;
    }
  }
  return parts.join('\n');
}
