// The count of recognised entities in the active editor, with the colour legend per tag in its tooltip;
// a click lists them. Hidden when the active editor has none.
import * as vscode from 'vscode';
import { Disposable } from '../../platform/lifecycle';
import type { EntityDecorations } from './entityDecorations';
import { tagSwatch } from './tagStyles';
import { CommandIds } from '../../platform/commandIds';

export class EntitiesStatusBar extends Disposable {
  readonly item: vscode.StatusBarItem;

  constructor(private readonly decorations: EntityDecorations) {
    super();
    this.item = this._register(vscode.window.createStatusBarItem('knowledgeDesk.entities', vscode.StatusBarAlignment.Right, 100));
    this.item.name = 'Knowledge Desk Entities';
    this.item.command = CommandIds.entities.list;
    this._register(decorations.onDidChange(() => this.render()));
    this._register(vscode.window.onDidChangeActiveTextEditor(() => this.render()));
    this.render();
  }

  render(): void {
    const editor = vscode.window.activeTextEditor;
    const entities = editor ? this.decorations.entities(editor.document.uri) : [];
    if (entities.length === 0) return void this.item.hide();
    const counts = new Map<string, number>();
    for (const e of entities) counts.set(e.tag, (counts.get(e.tag) ?? 0) + 1);
    this.item.text = `$(symbol-keyword) ${entities.length} ${entities.length === 1 ? 'entity' : 'entities'}`;
    const md = new vscode.MarkdownString(undefined, true);
    md.supportHtml = true;
    md.appendMarkdown('**Recognised entities**\n\n');
    for (const [tag, n] of counts) {
      md.appendMarkdown(`${tagSwatch(tag)} `);
      md.appendText(`${tag}: ${n}`);
      md.appendMarkdown('  \n');
    }
    md.appendMarkdown('\nClick to list them. Editing the file clears them.');
    this.item.tooltip = md;
    this.item.accessibilityInformation = { label: `${entities.length} recognised entities` };
    this.item.show();
  }
}
