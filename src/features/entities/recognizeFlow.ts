// Recognize Entities: sends the selection (or the whole file) and decorates what comes back. The service
// reads at most 2,000 characters per request; a longer text is sent in parts cut at a line break, the
// first at once and each next one when the user asks ("Recognize Next Part"), adding to the decorations.
import * as vscode from 'vscode';
import type { Entity } from '../../api/schemas/nlu';
import { NLU_MAX_CHARS } from '../../api/values';
import type { Container } from '../../container';
import type { DecoratedEntity, EntityDecorations } from './entityDecorations';
import { locateEntity, nextPart } from './textParts';
import { CommandIds } from '../../platform/commandIds';

interface Job {
  document: vscode.TextDocument;
  version: number;
  /** The text recognised (selection or file), its offset in the document and what it is called. */
  text: string;
  base: number;
  scope: 'selection' | 'file';
}

export class RecognizeFlow {
  /** The rest of a text longer than one request, while the document is unchanged. */
  private pending: { job: Job; from: number } | undefined;
  /** The last notice about a cut text (for tests and diagnostics). */
  lastNotice: string | undefined;

  constructor(
    private readonly c: Container,
    private readonly decorations: EntityDecorations,
  ) {}

  async recognize(): Promise<readonly DecoratedEntity[]> {
    const editor = vscode.window.activeTextEditor;
    if (!editor) throw new Error('Open a file (or select some text in it) to recognise entities.');
    const { document, selection } = editor;
    const scope = selection.isEmpty ? 'file' : 'selection';
    const range = selection.isEmpty ? new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length)) : selection;
    const text = document.getText(range);
    if (!text.trim()) {
      void vscode.window.showInformationMessage(`Nothing to recognise: the ${scope} is empty.`);
      return [];
    }
    this.pending = undefined;
    this.lastNotice = undefined;
    const job: Job = { document, version: document.version, text, base: document.offsetAt(range.start), scope };
    return this.run(job, 0);
  }

  get hasNextPart(): boolean {
    return !!this.pending && this.pending.job.document.version === this.pending.job.version && !this.pending.job.document.isClosed;
  }

  async recognizeNextPart(): Promise<readonly DecoratedEntity[]> {
    const pending = this.pending;
    if (!pending || !this.hasNextPart)
      throw new Error('There is no next part to recognise: the document changed or everything was sent. Run Recognize Entities again.');
    return this.run(pending.job, pending.from);
  }

  private async run(job: Job, from: number): Promise<readonly DecoratedEntity[]> {
    const part = nextPart(job.text, from);
    const sent = job.text.slice(part.start, part.end);
    const client = await this.c.connection.getClient();
    const result = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'Recognizing entities' }, () =>
      client.nlu.infer(sent),
    );
    if (job.document.isClosed || job.document.version !== job.version) {
      void vscode.window.showWarningMessage('The document changed while entities were being recognised: run Recognize Entities again.');
      this.pending = undefined;
      return [];
    }
    // A service that read less than was sent (its own cut) continues from where it stopped.
    const read = result.inputText && sent.startsWith(result.inputText) ? result.inputText.length : sent.length;
    const end = part.start + read;
    this.pending = end < job.text.length ? { job, from: end } : undefined;
    const found = this.toDecorated(job, part.start, sent, result.entities);
    this.decorations.set(job.document, found, from > 0);
    this.report(job, end, from > 0);
    return found;
  }

  private toDecorated(job: Job, partStart: number, sent: string, entities: Entity[]): DecoratedEntity[] {
    const log = this.c.log('entities');
    const out: DecoratedEntity[] = [];
    for (const e of entities) {
      const at = locateEntity(sent, e);
      if (!at) {
        log.warn(`dropped ${e.tag} entity at ${e.startIndex}–${e.endIndex}: its token is not in the text sent`);
        continue;
      }
      const offset = job.base + partStart;
      const range = new vscode.Range(job.document.positionAt(offset + at.start), job.document.positionAt(offset + at.end));
      out.push({ tag: e.tag, token: sent.slice(at.start, at.end), range });
    }
    return out;
  }

  private report(job: Job, end: number, continued: boolean): void {
    const total = this.decorations.entities(job.document.uri).length;
    const count = `${total} ${total === 1 ? 'entity' : 'entities'}`;
    if (end >= job.text.length) {
      this.lastNotice = continued ? `Recognised the last part of the ${job.scope}: ${count} in all.` : undefined;
      vscode.window.setStatusBarMessage(`$(check) Recognised ${count}`, 4000);
      if (continued) void vscode.window.showInformationMessage(this.lastNotice!);
      return;
    }
    const lastLine = job.document.positionAt(job.base + end - 1).line + 1;
    this.lastNotice =
      `Entity recognition reads up to ${NLU_MAX_CHARS.toLocaleString('en-US')} characters per request: ` +
      `characters 1–${end.toLocaleString('en-US')} of the ${job.text.length.toLocaleString('en-US')} in the ${job.scope} have been sent (to line ${lastLine}); ${count} so far.`;
    void vscode.window.showInformationMessage(this.lastNotice, 'Recognize Next Part').then((choice) => {
      if (choice === 'Recognize Next Part') void vscode.commands.executeCommand(CommandIds.entities.recognizeNextPart);
    });
  }
}
