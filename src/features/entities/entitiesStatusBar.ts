// The count of recognised entities in the active editor, with the colour legend in its tooltip (each tag's
// colour, what it marks and how many there are); a click lists them. Hidden when the active editor has none.
import * as vscode from 'vscode';
import { formatNumber } from '../../platform/l10n';
import { Disposable } from '../../platform/lifecycle';
import type { EntityDecorations } from './entityDecorations';
import { tagMeaning, tagSwatch } from './tagStyles';
import { CommandIds } from '../../platform/commandIds';

export class EntitiesStatusBar extends Disposable {
  readonly item: vscode.StatusBarItem;

  constructor(private readonly decorations: EntityDecorations) {
    super();
    this.item = this._register(vscode.window.createStatusBarItem('knowledgeDesk.entities', vscode.StatusBarAlignment.Right, 100));
    this.item.name = vscode.l10n.t('Knowledge Desk Entities');
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
    const count = formatNumber(entities.length);
    this.item.text = `$(symbol-keyword) ${entities.length === 1 ? vscode.l10n.t('{0} entity', count) : vscode.l10n.t('{0} entities', count)}`;
    const md = new vscode.MarkdownString(undefined, true);
    md.supportHtml = true;
    md.appendMarkdown(`**${vscode.l10n.t('Recognised entities: what the colours mean')}**\n\n`);
    for (const [tag, n] of counts) {
      md.appendMarkdown(`${tagSwatch(tag)} `);
      md.appendText(vscode.l10n.t('{0}: {1} ({2})', tag, tagMeaning(tag), formatNumber(n)));
      md.appendMarkdown('  \n');
    }
    md.appendMarkdown(`\n${vscode.l10n.t('Click to list them. Editing the file clears them.')}`);
    this.item.tooltip = md;
    this.item.accessibilityInformation = { label: vscode.l10n.t('{0} recognised entities', count) };
    this.item.show();
  }
}
