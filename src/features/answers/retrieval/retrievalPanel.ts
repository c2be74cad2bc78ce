import * as vscode from 'vscode';
import type { RetrievalRequest } from '../../../api/resources/answers';
import type { RetrievalItem } from '../../../api/schemas/answers';
import type { Region } from '../../../core/regions';
import { Disposable } from '../../../platform/lifecycle';
import { hostSetup, reportError, type PanelBasics } from '../../../platform/webview/panelErrors';
import { createPanel } from '../../../platform/webview/panelRegistration';
import { WebviewPanelHost } from '../../../platform/webview/webviewPanel';
import {
  DEFAULT_SETTINGS,
  RETRIEVAL_VIEW_TYPE,
  retrievalProtocol,
  toRetrievalRequest,
  type Column,
  type ResultItem,
  type RetrievalProtocol,
  type RunResult,
} from './protocol';
import { regionLabel } from '../../../platform/regionLabels';
import { retrievalStrings } from './retrievalStrings';

export interface RetrievalContext extends PanelBasics {
  /** The region the panel runs against (its name is shown in the header). */
  region(): Region;
  retrieve(request: RetrievalRequest): Promise<RetrievalItem[]>;
  /** Opens a result in the citation viewer (knowledgeDesk.answers.openDocument). */
  openDocument(arg: {
    kbId: string;
    pageNo: number;
    passageText: string;
    subTextIndex?: number;
    question?: string;
    title: string;
  }): Promise<unknown>;
}

const MAX_PASSAGE = 100_000;

/** What one column of the panel sent and got (tests compare them with the client's own answers). */
export interface RetrievalSent {
  column: Column;
  request: RetrievalRequest;
  items: ResultItem[];
}

/** Run retrieval with two settings side by side. */
export class RetrievalPanel extends WebviewPanelHost<RetrievalProtocol, RetrievalSent> {
  private question: string | null;

  constructor(
    panel: vscode.WebviewPanel,
    private readonly ctx: RetrievalContext,
    question?: string,
  ) {
    super(panel, {
      ...hostSetup(ctx),
      page: {
        name: 'retrieval',
        title: vscode.l10n.t('Retrieval'),
        styles: ['retrieval.css'],
        images: 'none',
        strings: retrievalStrings(),
      },
      protocol: retrievalProtocol,
      rendered: (r) => `retrieval drawn: A ${r.A.count} [${r.A.marks.join(' ')}], B ${r.B.count} [${r.B.marks.join(' ')}]`,
    });
    this.question = question ?? null;
    this.channel.handle('run', ({ column, question: q, settings }) => this.run(column, q, toRetrievalRequest(q, settings)));
    this.channel.handle('open', async ({ item, question: q }) => {
      await ctx.openDocument({
        kbId: item.kbId,
        pageNo: item.pageNo,
        passageText: item.text,
        subTextIndex: item.subTextIndex,
        question: q || undefined,
        title: item.title,
      });
      return { opened: true };
    });
  }

  /** Puts a question in the field (Show Retrieval with an argument); the page keeps it afterwards. */
  ask(question: string): void {
    this.question = question;
    if (this.channel.isReady) this.channel.notify('question', { question });
  }

  protected onPageReady(): void {
    this.channel.notify('init', { defaults: DEFAULT_SETTINGS, region: regionLabel(this.ctx.region()), question: this.question });
  }

  private async run(column: Column, question: string, request: RetrievalRequest): Promise<RunResult> {
    const started = Date.now();
    try {
      const items = (await this.ctx.retrieve(request)).map((i): ResultItem => ({
        ranking: i.ranking,
        title: i.title.slice(0, 1_000),
        pageNo: i.pageNo,
        kbId: i.kb_id.slice(0, 1_000),
        text: i.text.slice(0, MAX_PASSAGE),
        subTextIndex: subTextIndexOf(i),
      }));
      this.sentEmitter.fire({ column, request, items });
      this.ctx.log.info(
        `retrieval ${column}: ${items.length} ${items.length === 1 ? 'result' : 'results'} in ${Date.now() - started} ms for ${JSON.stringify(question.slice(0, 80))}`,
      );
      return { items: items.slice(0, 100), elapsedMs: Date.now() - started, request: { ...request } };
    } catch (error) {
      // Shown inline in the column, and once the usual way (log + notification).
      reportError(this.ctx.errors, `Retrieval ${column}`, error);
      throw error;
    }
  }
}

/** The local service adds the chunk index to each item (docs/api.md#retrieval): passed on when it is there. */
function subTextIndexOf(item: RetrievalItem): number | undefined {
  const v = (item as { subTextIndex?: unknown }).subTextIndex;
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : undefined;
}

/** The one Retrieval panel: shown, revealed, or restored after a restart. */
export class RetrievalPanels extends Disposable {
  private panel: RetrievalPanel | undefined;

  constructor(private readonly ctx: RetrievalContext) {
    super();
    this._register({ dispose: () => this.panel?.dispose() });
  }

  get current(): RetrievalPanel | undefined {
    return this.panel;
  }

  show(question?: string): RetrievalPanel {
    if (this.panel) {
      this.panel.reveal();
      if (question) this.panel.ask(question);
      return this.panel;
    }
    return this.adopt(createPanel(RETRIEVAL_VIEW_TYPE, vscode.l10n.t('Retrieval'), this.ctx.extensionUri), question);
  }

  /** Serializer: the page keeps its question and settings in its own state. */
  restore(panel: vscode.WebviewPanel): void {
    if (this.panel) {
      panel.dispose();
      return;
    }
    this.adopt(panel);
  }

  private adopt(panel: vscode.WebviewPanel, question?: string): RetrievalPanel {
    const p = new RetrievalPanel(panel, this.ctx, question);
    this.panel = p;
    p.onDidDispose(() => this.panel === p && (this.panel = undefined));
    return p;
  }
}
