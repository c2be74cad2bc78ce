import * as vscode from 'vscode';

/** A multi-select pick's answer when it has title buttons: the items picked, or the button pressed. */
export type PickedOrButton<T> = { picked: readonly T[] } | { button: vscode.QuickInputButton } | undefined;

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
  /** A multi-select pick with buttons in its title bar (the promote preview's Open as Diff); pressing one closes it. */
  showQuickPickManyWithButtons<T extends vscode.QuickPickItem>(
    items: readonly T[],
    options: vscode.QuickPickOptions & { buttons: readonly vscode.QuickInputButton[] },
  ): Promise<PickedOrButton<T>>;
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
  async showQuickPickManyWithButtons<T extends vscode.QuickPickItem>(
    items: readonly T[],
    options: vscode.QuickPickOptions & { buttons: readonly vscode.QuickInputButton[] },
  ): Promise<PickedOrButton<T>> {
    const qp = vscode.window.createQuickPick<T>();
    Object.assign(qp, {
      title: options.title,
      placeholder: options.placeHolder,
      canSelectMany: true,
      ignoreFocusOut: true,
      matchOnDescription: options.matchOnDescription ?? false,
      matchOnDetail: options.matchOnDetail ?? false,
    });
    qp.items = items;
    qp.selectedItems = items.filter((i) => i.picked);
    qp.buttons = options.buttons;
    return new Promise<PickedOrButton<T>>((resolve) => {
      let answer: PickedOrButton<T>;
      qp.onDidTriggerButton((button) => {
        answer = { button };
        qp.hide();
      });
      qp.onDidAccept(() => {
        answer = { picked: [...qp.selectedItems] };
        qp.hide();
      });
      qp.onDidHide(() => {
        qp.dispose();
        resolve(answer);
      });
      qp.show();
    });
  }
  async showWarningMessage(message: string, options: vscode.MessageOptions, ...actions: string[]): Promise<string | undefined> {
    return vscode.window.showWarningMessage(message, options, ...actions);
  }
  async showOpenDialog(options: vscode.OpenDialogOptions): Promise<vscode.Uri[] | undefined> {
    return vscode.window.showOpenDialog(options);
  }
}
