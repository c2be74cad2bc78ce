// Entity recognition in the editor: Recognize Entities (selection or whole file) decorates what the
// service finds, one colour per tag with the tag in the hover; List Entities; Clear Entities; Teach
// Phrase… on a selection. Uses the entity-recognition address and key of the current region.
import * as vscode from 'vscode';
import type { Container } from '../../container';
import { CommandIds, ContextKeys } from '../../platform/commandIds';
import { setContext } from '../../platform/contextKeys';
import { Disposable } from '../../platform/lifecycle';
import { EntitiesStatusBar } from './entitiesStatusBar';
import { EntityDecorations } from './entityDecorations';
import { showEntityList } from './entityList';
import { RecognizeFlow } from './recognizeFlow';
import { TeachPhraseFlow } from './teachPhrase';

export class EntitiesFeature extends Disposable {
  readonly decorations: EntityDecorations;
  readonly recognizer: RecognizeFlow;
  readonly teacher: TeachPhraseFlow;
  readonly statusBar: EntitiesStatusBar;

  constructor(private readonly c: Container) {
    super();
    this.decorations = this._register(new EntityDecorations());
    this.recognizer = this._register(new RecognizeFlow(c, this.decorations));
    this.teacher = this._register(new TeachPhraseFlow(c, () => this.decorations.tags()));
    this.statusBar = this._register(new EntitiesStatusBar(this.decorations));
    const ids = CommandIds.entities;
    this._register(
      c.commands({
        [ids.recognize]: () => this.recognizer.recognize(),
        [ids.recognizeNextPart]: () => this.recognizer.recognizeNextPart(),
        [ids.clear]: () => this.clear(),
        [ids.list]: () => showEntityList(c, this.decorations),
        [ids.teachPhrase]: () => this.teacher.teach(),
      }),
    );
    this._register(this.decorations.onDidChange(() => this.updateContext()));
    this._register(vscode.window.onDidChangeActiveTextEditor(() => this.updateContext()));
    this.updateContext();
  }

  private updateContext(): void {
    const editor = vscode.window.activeTextEditor;
    setContext(ContextKeys.entitiesHasEntities, !!editor && this.decorations.entities(editor.document.uri).length > 0);
    setContext(ContextKeys.entitiesHasNextPart, this.recognizer.hasNextPart);
  }

  private clear(): void {
    const editor = vscode.window.activeTextEditor;
    if (editor) this.decorations.clear(editor.document.uri);
    else this.decorations.clearAll();
    this.c.log('entities').debug('decorations cleared');
  }
}
