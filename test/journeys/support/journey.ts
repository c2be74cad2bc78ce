// What the journeys share beyond test/integration/support/host.ts: where a window keeps its journey state, the
// screenshots every journey takes at its key moments, and a click on a workbench element through the driver.
import * as assert from 'node:assert/strict';
import * as os from 'node:os';
import * as vscode from 'vscode';
import { driverRequest, screenshot } from '../../integration/support/host';

/** A journey that reloads the window writes this file (in journeyState()) before it does: what to go on with. */
export const RESUME_FILE = 'resume.json';

/** The folder runIntegration.mjs gives this window for its ledger and a reload's resume file. */
export function journeyState(): string {
  return process.env.KD_JOURNEY_STATE ?? os.tmpdir();
}

export const japanese = (): boolean => vscode.env.language.startsWith('ja');

/** English or Japanese, by the display language: for UI text a journey reads. */
export const tr = (en: string, ja: string): string => (japanese() ? ja : en);

function shotsDir(): string {
  const dir = process.env.KD_SCREENSHOT_DIR;
  if (!dir) throw new Error('the journeys run with screenshots (runIntegration.mjs --suite journeys sets KD_SCREENSHOT_DIR)');
  return dir;
}

/**
 * A screenshot of one key moment of a journey, `<journey>-<nn>-<moment>.png` in the window's screenshot folder; with
 * `waitForSelector` it also checks the workbench shows that element (the journey fails when it never does).
 */
export async function shoot(name: string, options: { keepNotifications?: boolean; waitForSelector?: string } = {}): Promise<void> {
  shotsDir();
  await screenshot(name, options);
}

/** Clicks a workbench element as a person does (a notification's button): the driver clicks it in the page. */
export async function clickInWorkbench(name: string, selector: string): Promise<void> {
  await driverRequest(shotsDir(), `click-${name}`, { click: selector });
}

/** What the chat handler wrote, in order (a ChatResponseStream stand-in: VS Code 1.100 draws no chat without a model). */
export class RecordingStream {
  readonly parts: Array<{ kind: string; value: unknown; title?: string }> = [];
  markdown(value: string | vscode.MarkdownString): void {
    this.parts.push({ kind: 'markdown', value: typeof value === 'string' ? value : value.value });
  }
  anchor(value: vscode.Uri, title?: string): void {
    this.parts.push({ kind: 'anchor', value, title });
  }
  reference(value: vscode.Uri): void {
    this.parts.push({ kind: 'reference', value });
  }
  button(command: vscode.Command): void {
    this.parts.push({ kind: 'button', value: command.command, title: command.title });
  }
  progress(value: string): void {
    this.parts.push({ kind: 'progress', value });
  }
  get text(): string {
    return this.parts.map((p) => (p.kind === 'markdown' ? p.value : p.kind === 'anchor' ? `<${p.title}>` : '')).join('');
  }
}

/**
 * What a journey found wrong on its way, where the person could go on (another way to the same place): every finding
 * of a run is reported at the end, not only the first.
 */
export class Findings {
  readonly list: string[] = [];

  /** Notes `what` when `ok` is false; returns `ok`. */
  check(ok: boolean, what: string): boolean {
    if (!ok) {
      this.list.push(what);
      console.log(`journey finding: ${what}`);
    }
    return ok;
  }

  /** Runs a step whose failure is a finding (its message noted), not the end of the journey; returns whether it passed. */
  async step(what: string, fn: () => Promise<unknown>): Promise<boolean> {
    try {
      await fn();
      return true;
    } catch (error) {
      return this.check(false, `${what}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Fails the journey with every finding. */
  assertNone(): void {
    if (this.list.length) assert.fail(`the journey found:\n- ${this.list.join('\n- ')}`);
  }
}
