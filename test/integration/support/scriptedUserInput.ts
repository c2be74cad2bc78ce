// Scripted answers to the extension's prompts (UserInput), the integration tests' side of Azure's TestUserInput:
// a prompt with no answer left throws with what was asked, so a test fails instead of hanging.
import * as vscode from 'vscode';
import type { PickedOrButton, UserInput } from '../../../src/platform/userInput';

/** One scripted answer: a value, or a function that sees the prompt and returns the answer. */
export type ScriptedAnswer =
  unknown | ((prompt: { kind: string; options: unknown; items?: readonly vscode.QuickPickItem[]; actions?: readonly string[] }) => unknown);

/** Answers prompts from a queue; a prompt with no answer left throws with what was asked. */
export class ScriptedUserInput implements UserInput {
  readonly asked: Array<{ kind: string; title: string }> = [];
  constructor(private readonly answers: ScriptedAnswer[]) {}

  get remaining(): number {
    return this.answers.length;
  }

  private async next(
    kind: string,
    options: unknown,
    items?: readonly vscode.QuickPickItem[],
    actions?: readonly string[],
  ): Promise<unknown> {
    const o = options as { title?: string; prompt?: string; placeHolder?: string } | undefined;
    const title = o?.title ?? o?.prompt ?? o?.placeHolder ?? (typeof options === 'string' ? options : kind);
    this.asked.push({ kind, title });
    if (!this.answers.length) throw new Error(`Unexpected ${kind}: "${title}"`);
    const answer = this.answers.shift();
    return typeof answer === 'function' ? (answer as (p: unknown) => unknown)({ kind, options, items, actions }) : answer;
  }

  async showInputBox(options: vscode.InputBoxOptions): Promise<string | undefined> {
    const value = (await this.next('inputBox', options)) as string | undefined;
    if (value !== undefined && options.validateInput) {
      const problem = await options.validateInput(value);
      // A warning or a note does not refuse the text (InputBoxValidationSeverity.Error is what does).
      if (problem && (typeof problem === 'string' || problem.severity === vscode.InputBoxValidationSeverity.Error))
        throw new Error(`Scripted input "${value}" rejected: ${typeof problem === 'string' ? problem : problem.message}`);
    }
    return value;
  }
  async showQuickPick<T extends vscode.QuickPickItem>(
    items: readonly T[] | Promise<readonly T[]>,
    options: vscode.QuickPickOptions,
  ): Promise<T | undefined> {
    const list = await items;
    const answer = await this.next('quickPick', options, list);
    if (answer === undefined) return undefined;
    const pick =
      typeof answer === 'string'
        ? list.find((i) => plain(i.label) === answer || (i as { id?: string }).id === answer || plain(i.label) === shown(answer))
        : (answer as T);
    if (!pick) throw new Error(`Scripted pick "${String(answer)}" is not among: ${list.map((i) => i.label).join(', ')}`);
    return pick;
  }
  async showQuickPickMany<T extends vscode.QuickPickItem>(
    items: readonly T[],
    options: vscode.QuickPickOptions,
  ): Promise<readonly T[] | undefined> {
    const answer = (await this.next('quickPickMany', options, items)) as string[] | undefined;
    return answer && pickLabels(items, answer);
  }
  /**
   * A pick with title buttons: a list of labels picks those (as showQuickPickMany), `{ button: 'tooltip' }` presses
   * the product's button of that tooltip (in English; the display language's own is found too).
   */
  async showQuickPickManyWithButtons<T extends vscode.QuickPickItem>(
    items: readonly T[],
    options: vscode.QuickPickOptions & { buttons: readonly vscode.QuickInputButton[] },
  ): Promise<PickedOrButton<T>> {
    const answer = await this.next('quickPickMany', options, items);
    if (answer === undefined) return undefined;
    if (answer && typeof answer === 'object' && !Array.isArray(answer) && 'button' in answer) {
      const name = (answer as { button: string }).button;
      const button = options.buttons.find((b) => b.tooltip === name || b.tooltip === shown(name));
      if (!button) throw new Error(`Scripted button "${name}" is not among: ${options.buttons.map((b) => b.tooltip).join(', ')}`);
      return { button };
    }
    return { picked: pickLabels(items, answer as string[]) };
  }
  async showWarningMessage(message: string, _options?: vscode.MessageOptions, ...actions: string[]): Promise<string | undefined> {
    // A function answer sees the buttons in their order (the first is the dialog's default).
    const answer = await this.next('warningMessage', message, undefined, actions);
    // A button scripted in English is the button of that name in the display language.
    return typeof answer === 'string' && !actions.includes(answer) && actions.includes(shown(answer)) ? shown(answer) : (answer as string);
  }
  async showOpenDialog(options: vscode.OpenDialogOptions): Promise<vscode.Uri[] | undefined> {
    return (await this.next('openDialog', options)) as vscode.Uri[] | undefined;
  }
}

/** The items of these labels (in English or the display language's), in the order named. */
function pickLabels<T extends vscode.QuickPickItem>(items: readonly T[], labels: readonly string[]): T[] {
  return labels.map((label) => {
    const pick = items.find((i) => plain(i.label) === label || plain(i.label) === shown(label));
    if (!pick) throw new Error(`Scripted pick "${label}" is not among: ${items.map((i) => i.label).join(', ')}`);
    return pick;
  });
}

/**
 * A label or button a script names in English, as the display language shows it: scripts are written in
 * English and run in any display language (`--locale ja`). The text as is when the bundle has none.
 */
function shown(english: string): string {
  return vscode.l10n.t(english);
}

/** A label without its leading `$(icon)` decorations, as a person reads it. */
function plain(label: string): string {
  return label.replace(/^(\$\([\w~-]+\)\s*)+/, '');
}
