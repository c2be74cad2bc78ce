import * as vscode from 'vscode';

/**
 * Every prompt the extension shows goes through this interface, so integration tests can script
 * the answers and an unexpected prompt fails the test instead of hanging it (Azure's TestUserInput; the
 * scripted one is test/integration/support/scriptedUserInput.ts).
 */
export interface UserInput {
  showInputBox(options: vscode.InputBoxOptions): Promise<string | undefined>;
  showQuickPick<T extends vscode.QuickPickItem>(
    items: readonly T[] | Promise<readonly T[]>,
    options: vscode.QuickPickOptions & { canPickMany?: false },
  ): Promise<T | undefined>;
  showQuickPickMany<T extends vscode.QuickPickItem>(
    items: readonly T[],
    options: vscode.QuickPickOptions,
  ): Promise<readonly T[] | undefined>;
  showWarningMessage(message: string, options: vscode.MessageOptions, ...actions: string[]): Promise<string | undefined>;
  showOpenDialog(options: vscode.OpenDialogOptions): Promise<vscode.Uri[] | undefined>;
}

export class WindowUserInput implements UserInput {
  async showInputBox(options: vscode.InputBoxOptions): Promise<string | undefined> {
    return vscode.window.showInputBox({ ignoreFocusOut: true, ...options });
  }
  async showQuickPick<T extends vscode.QuickPickItem>(
    items: readonly T[] | Promise<readonly T[]>,
    options: vscode.QuickPickOptions,
  ): Promise<T | undefined> {
    return vscode.window.showQuickPick(items as T[] | Promise<T[]>, { ignoreFocusOut: true, ...options, canPickMany: false });
  }
  async showQuickPickMany<T extends vscode.QuickPickItem>(
    items: readonly T[],
    options: vscode.QuickPickOptions,
  ): Promise<readonly T[] | undefined> {
    return vscode.window.showQuickPick(items as T[], { ignoreFocusOut: true, ...options, canPickMany: true });
  }
  async showWarningMessage(message: string, options: vscode.MessageOptions, ...actions: string[]): Promise<string | undefined> {
    return vscode.window.showWarningMessage(message, options, ...actions);
  }
  async showOpenDialog(options: vscode.OpenDialogOptions): Promise<vscode.Uri[] | undefined> {
    return vscode.window.showOpenDialog(options);
  }
}
