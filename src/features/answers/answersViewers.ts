import * as vscode from 'vscode';
import { REGION_INFO } from '../../core/regions';
import type { Container } from '../../container';
import { toUserFacing } from '../../platform/errorMessages';
import { Disposable } from '../../platform/lifecycle';
import type { ErrorReporting } from '../../platform/webview/panelErrors';
import { registerPanelSerializer } from '../../platform/webview/webviewPanel';
import { parseOpenCitation, parseOpenDocument } from './citations/citationArgs';
import { CitationPanels } from './citations/citationPanel';
import { DocumentSource, type SourceClient } from './citations/documentSource';
import { downloadPreview } from './citations/previewDownload';
import { CITATION_VIEW_TYPE, citationStateSchema } from './citations/protocol';
import { RETRIEVAL_VIEW_TYPE, retrievalStateSchema } from './retrieval/protocol';
import { RetrievalPanels } from './retrieval/retrievalPanel';
import { CommandIds } from '../../platform/commandIds';

/**
 * The answers' viewers: the citation viewer (a cited page with the passage highlighted) and the
 * Retrieval panel (run retrieval, tune its weights, compare two settings). Commands and serializers.
 */
export class AnswersViewers extends Disposable {
  readonly citations: CitationPanels;
  readonly retrieval: RetrievalPanels;

  constructor(c: Container) {
    super();
    const errors = (log: ReturnType<Container['log']>): ErrorReporting => ({
      log,
      showLog: () => c.logger.show(),
      onErrorShown: (source, message) => c.errorsShown.push({ command: source, message }),
    });
    const citationLog = c.log('citation');
    const source = new DocumentSource({
      region: () => c.settings.region,
      // localDocs is added to the client for the Local region (GET /_local/documents/{id}/content|pages).
      client: async (): Promise<SourceClient> => await c.connection.getClient(),
      download: async (url) => {
        // The client's dispatcher carries the proxy settings; the request itself carries no key.
        const dispatcher = await c.connection.getClient().then(
          (client) => client.config.dispatcher,
          () => undefined,
        );
        return downloadPreview(url, { dispatcher });
      },
      describe: (error) => toUserFacing(error).message,
      log: citationLog,
    });
    this.citations = this._register(
      new CitationPanels({ extensionUri: c.context.extensionUri, log: citationLog, errors: errors(citationLog), source }),
    );

    const retrievalLog = c.log('retrieval');
    this.retrieval = this._register(
      new RetrievalPanels({
        extensionUri: c.context.extensionUri,
        log: retrievalLog,
        errors: errors(retrievalLog),
        regionLabel: () => REGION_INFO[c.settings.region].label,
        retrieve: async (request) => (await c.connection.getClient()).answers.retrieve(request),
        openDocument: (arg) => Promise.resolve(vscode.commands.executeCommand(CommandIds.answers.openDocument, arg)),
      }),
    );

    const log = c.log('webview');
    this._register(
      registerPanelSerializer(CITATION_VIEW_TYPE, citationStateSchema, log, (panel, state) => this.citations.restore(panel, state)),
    );
    this._register(registerPanelSerializer(RETRIEVAL_VIEW_TYPE, retrievalStateSchema, log, (panel) => this.retrieval.restore(panel)));

    this._register(
      c.commands({
        [CommandIds.answers.openCitation]: async (arg?: unknown) => {
          const action = parseOpenCitation(arg);
          if (action.kind === 'qna') return vscode.commands.executeCommand(CommandIds.qna.open, { id: action.faqId });
          return this.citations.open(action.target, { pdfPreview: action.pdfPreview });
        },
        [CommandIds.answers.openDocument]: (arg?: unknown) => this.citations.open(parseOpenDocument(arg)),
        [CommandIds.answers.showRetrieval]: (arg?: unknown) => this.retrieval.show(typeof arg === 'string' ? arg : undefined),
      }),
    );
  }
}
