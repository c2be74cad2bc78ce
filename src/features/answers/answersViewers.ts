import * as vscode from 'vscode';
import type { Container } from '../../container';
import { toUserFacing } from '../../platform/errorMessages';
import { Disposable } from '../../platform/lifecycle';
import { LazyPanelHost } from '../../platform/webview/lazyPanelHost';
import type * as CitationArgs from './citations/citationArgs';
import type * as CitationPanelModule from './citations/citationPanel';
import type { CitationPanels } from './citations/citationPanel';
import type * as DocumentSourceModule from './citations/documentSource';
import type { SourceClient } from './citations/documentSource';
import type * as PreviewDownload from './citations/previewDownload';
import type * as CitationProtocol from './citations/protocol';
import type * as RetrievalProtocol from './retrieval/protocol';
import type * as RetrievalPanelModule from './retrieval/retrievalPanel';
import type { RetrievalPanels } from './retrieval/retrievalPanel';

// The viewers, their protocols (zod schemas) and the preview download load when a viewer is first needed
// (a command, a restored panel), not at activation: building the schemas costs activation time.
/* eslint-disable @typescript-eslint/no-require-imports -- loaded on first use, not at activation */
const lazy = {
  citationArgs: (): typeof CitationArgs => require('./citations/citationArgs'),
  citationPanel: (): typeof CitationPanelModule => require('./citations/citationPanel'),
  documentSource: (): typeof DocumentSourceModule => require('./citations/documentSource'),
  previewDownload: (): typeof PreviewDownload => require('./citations/previewDownload'),
  citationProtocol: (): typeof CitationProtocol => require('./citations/protocol'),
  retrievalProtocol: (): typeof RetrievalProtocol => require('./retrieval/protocol'),
  retrievalPanel: (): typeof RetrievalPanelModule => require('./retrieval/retrievalPanel'),
};
/* eslint-enable @typescript-eslint/no-require-imports */
const CITATION_VIEW_TYPE: typeof CitationProtocol.CITATION_VIEW_TYPE = 'knowledgeDesk.citation';
const RETRIEVAL_VIEW_TYPE: typeof RetrievalProtocol.RETRIEVAL_VIEW_TYPE = 'knowledgeDesk.retrieval';
import { CommandIds } from '../../platform/commandIds';
import { completeWalkthroughStep } from '../../platform/walkthrough';

/**
 * The answers' viewers: the citation viewer (a cited page with the passage highlighted) and the
 * Retrieval panel (run retrieval, tune its weights, compare two settings). Commands and serializers.
 */
export class AnswersViewers extends Disposable {
  private readonly citationHost: LazyPanelHost<typeof CitationProtocol.citationStateSchema, CitationPanels>;
  private readonly retrievalHost: LazyPanelHost<typeof RetrievalProtocol.retrievalStateSchema, RetrievalPanels>;

  constructor(private readonly c: Container) {
    super();
    const log = c.log('webview');
    this.citationHost = this._register(
      new LazyPanelHost({
        viewType: CITATION_VIEW_TYPE,
        stateSchema: () => lazy.citationProtocol().citationStateSchema,
        log,
        create: () => this.createCitations(),
      }),
    );
    this.retrievalHost = this._register(
      new LazyPanelHost({
        viewType: RETRIEVAL_VIEW_TYPE,
        stateSchema: () => lazy.retrievalProtocol().retrievalStateSchema,
        log,
        create: () => this.createRetrieval(),
      }),
    );
    this._register(
      c.commands({
        [CommandIds.answers.openCitation]: async (arg?: unknown) => {
          const action = lazy.citationArgs().parseOpenCitation(arg);
          const opened =
            action.kind === 'qna'
              ? await vscode.commands.executeCommand(CommandIds.qna.open, { id: action.faqId })
              : await this.citations.open(action.target, { pdfPreview: action.pdfPreview });
          completeWalkthroughStep('citationOpened');
          return opened;
        },
        [CommandIds.answers.openDocument]: (arg?: unknown) => this.citations.open(lazy.citationArgs().parseOpenDocument(arg)),
        [CommandIds.answers.showRetrieval]: (arg?: unknown) => this.retrieval.show(typeof arg === 'string' ? arg : undefined),
      }),
    );
  }

  /** The citation viewers; built on first use. */
  get citations(): CitationPanels {
    return this.citationHost.get();
  }

  /** The Retrieval panel's host; built on first use. */
  get retrieval(): RetrievalPanels {
    return this.retrievalHost.get();
  }

  private createCitations(): CitationPanels {
    const c = this.c;
    const citationLog = c.log('citation');
    const source = new (lazy.documentSource().DocumentSource)({
      region: () => c.settings.region,
      // The public download and text operations, for every region (documentSource.ts).
      client: async (): Promise<SourceClient> => await c.connection.getClient(),
      download: async (url) => {
        // The client's dispatcher carries the proxy settings; the request itself carries no key.
        const dispatcher = await c.connection.getClient().then(
          (client) => client.config.dispatcher,
          () => undefined,
        );
        return lazy.previewDownload().downloadPreview(url, { dispatcher });
      },
      describe: (error) => toUserFacing(error).message,
      log: citationLog,
    });
    return new (lazy.citationPanel().CitationPanels)({
      extensionUri: c.context.extensionUri,
      log: citationLog,
      probe: c.probe,
      errors: c.errorReporting(citationLog),
      source,
    });
  }

  private createRetrieval(): RetrievalPanels {
    const c = this.c;
    const retrievalLog = c.log('retrieval');
    return new (lazy.retrievalPanel().RetrievalPanels)({
      extensionUri: c.context.extensionUri,
      log: retrievalLog,
      probe: c.probe,
      errors: c.errorReporting(retrievalLog),
      region: () => c.settings.region,
      retrieve: async (request) => (await c.connection.getClient()).answers.retrieve(request),
      openDocument: (arg) => Promise.resolve(vscode.commands.executeCommand(CommandIds.answers.openDocument, arg)),
    });
  }
}
