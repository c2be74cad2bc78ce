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
import { formatNumber } from '../../platform/l10n';
import { Disposable } from '../../platform/lifecycle';

interface Job {
  document: vscode.TextDocument;
  version: number;
  /** The text recognised (selection or file), its offset in the document and what it is called. */
  text: string;
  base: number;
  scope: 'selection' | 'file';
}

export class RecognizeFlow extends Disposable {
  /** The rest of a text longer than one request, while the document is unchanged. */
  private pending: { job: Job; from: number } | undefined;
  private readonly noticeEmitter = this._register(new vscode.EventEmitter<string | undefined>());
  /** A run's notice about a text longer than one request (or none, undefined, when a run starts or ends without one). */
  readonly onDidNotice = this.noticeEmitter.event;

  constructor(
    private readonly c: Container,
    private readonly decorations: EntityDecorations,
  ) {
    super();
  }

  async recognize(): Promise<readonly DecoratedEntity[]> {
    const editor = vscode.window.activeTextEditor;
    if (!editor) throw new Error(vscode.l10n.t('Open a file (or select some text in it) to recognise entities.'));
    const { document, selection } = editor;
    const scope = selection.isEmpty ? 'file' : 'selection';
    const range = selection.isEmpty ? new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length)) : selection;
    const text = document.getText(range);
    if (!text.trim()) {
      void vscode.window.showInformationMessage(
        scope === 'file'
          ? vscode.l10n.t('Nothing to recognise: the file is empty.')
          : vscode.l10n.t('Nothing to recognise: the selection is empty.'),
      );
      return [];
    }
    this.pending = undefined;
    this.noticeEmitter.fire(undefined);
    const job: Job = { document, version: document.version, text, base: document.offsetAt(range.start), scope };
    return this.run(job, 0);
  }

  get hasNextPart(): boolean {
    return !!this.pending && this.pending.job.document.version === this.pending.job.version && !this.pending.job.document.isClosed;
  }

  async recognizeNextPart(): Promise<readonly DecoratedEntity[]> {
    const pending = this.pending;
    if (!pending || !this.hasNextPart)
      throw new Error(
        vscode.l10n.t('There is no next part to recognise: the document changed or everything was sent. Run Recognize Entities again.'),
      );
    return this.run(pending.job, pending.from);
  }

  private async run(job: Job, from: number): Promise<readonly DecoratedEntity[]> {
    const part = nextPart(job.text, from);
    const sent = job.text.slice(part.start, part.end);
    const client = await this.c.connection.getClient();
    const result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Recognizing entities') },
      () => client.nlu.infer(sent),
    );
    if (job.document.isClosed || job.document.version !== job.version) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t('The document changed while entities were being recognised: run Recognize Entities again.'),
      );
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
    const count = total === 1 ? vscode.l10n.t('{0} entity', formatNumber(total)) : vscode.l10n.t('{0} entities', formatNumber(total));
    const file = job.scope === 'file';
    if (end >= job.text.length) {
      const notice = !continued
        ? undefined
        : file
          ? vscode.l10n.t('Recognised the last part of the file: {0} in all.', count)
          : vscode.l10n.t('Recognised the last part of the selection: {0} in all.', count);
      vscode.window.setStatusBarMessage(`$(check) ${vscode.l10n.t('Recognised {0}', count)}`, 4000);
      this.noticeEmitter.fire(notice);
      if (notice) void vscode.window.showInformationMessage(notice);
      return;
    }
    const lastLine = job.document.positionAt(job.base + end - 1).line + 1;
    const args = [formatNumber(NLU_MAX_CHARS), formatNumber(end), formatNumber(job.text.length), lastLine, count] as const;
    const notice = file
      ? vscode.l10n.t(
          'Entity recognition reads up to {0} characters per request: characters 1–{1} of the {2} in the file have been sent (to line {3}); {4} so far.',
          ...args,
        )
      : vscode.l10n.t(
          'Entity recognition reads up to {0} characters per request: characters 1–{1} of the {2} in the selection have been sent (to line {3}); {4} so far.',
          ...args,
        );
    const next = vscode.l10n.t('Recognize Next Part');
    this.noticeEmitter.fire(notice);
    void vscode.window.showInformationMessage(notice, next).then((choice) => {
      if (choice === next) void vscode.commands.executeCommand(CommandIds.entities.recognizeNextPart);
    });
  }
}
