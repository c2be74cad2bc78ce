// Entity recognition in the editor: Recognize Entities (selection or whole file) decorates what the
// service finds, one colour per tag with the tag in the hover; List Entities; Clear Entities; Teach
// Phrase… on a selection. Uses the entity-recognition address and key of the current region.
import * as vscode from 'vscode';
import type { Container } from '../../container';
import { setContext } from '../../platform/contextKeys';
import { Disposable } from '../../platform/lifecycle';
import { EntitiesStatusBar } from './entitiesStatusBar';
import { EntityDecorations, type DecoratedEntity } from './entityDecorations';
import { showEntityList } from './entityList';
import { RecognizeFlow } from './recognizeFlow';
import { TeachPhraseFlow } from './teachPhrase';

/** Context keys for `when` clauses: the active editor has entities; a long text has a part left to send. */
export const EntityContextKeys = {
  hasEntities: 'knowledgeDesk.entities.hasEntities',
  hasNextPart: 'knowledgeDesk.entities.hasNextPart',
} as const;

export class EntitiesFeature extends Disposable {
  readonly decorations: EntityDecorations;
  readonly recognizer: RecognizeFlow;
  readonly teacher: TeachPhraseFlow;
  readonly statusBar: EntitiesStatusBar;

  constructor(private readonly c: Container) {
    super();
    this.decorations = this._register(new EntityDecorations());
    this.recognizer = new RecognizeFlow(c, this.decorations);
    this.teacher = new TeachPhraseFlow(c, () => this.decorations.tags());
    this.statusBar = this._register(new EntitiesStatusBar(this.decorations));
    const cmd = (id: string, fn: (...args: any[]) => unknown): void => void this._register(c.command(id, fn));
    cmd('knowledgeDesk.entities.recognize', () => this.recognizer.recognize());
    cmd('knowledgeDesk.entities.recognizeNextPart', () => this.recognizer.recognizeNextPart());
    cmd('knowledgeDesk.entities.clear', () => this.clear());
    cmd('knowledgeDesk.entities.list', () => showEntityList(c, this.decorations));
    cmd('knowledgeDesk.entities.teachPhrase', () => this.teacher.teach());
    this._register(this.decorations.onDidChange(() => this.updateContext()));
    this._register(vscode.window.onDidChangeActiveTextEditor(() => this.updateContext()));
    this.updateContext();
  }

  /** What is decorated in `uri` now (for tests: tag, token and range of each entity). */
  decorated(uri: vscode.Uri): readonly DecoratedEntity[] {
    return this.decorations.entities(uri);
  }

  private updateContext(): void {
    const editor = vscode.window.activeTextEditor;
    setContext(EntityContextKeys.hasEntities, !!editor && this.decorations.entities(editor.document.uri).length > 0);
    setContext(EntityContextKeys.hasNextPart, this.recognizer.hasNextPart);
  }

  private clear(): void {
    const editor = vscode.window.activeTextEditor;
    if (editor) this.decorations.clear(editor.document.uri);
    else this.decorations.clearAll();
    this.c.log('entities').debug('decorations cleared');
  }
}
