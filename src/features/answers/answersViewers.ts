import * as vscode from 'vscode';
import type { Container } from '../../container';
import { regionOf } from '../../core/connections';
import { PinnedClients } from '../../platform/connection/pinnedClients';
import { toUserFacing } from '../../platform/errorMessages';
import { Disposable } from '../../platform/lifecycle';
import { lazyPanels, type LazyPanelHost } from '../../platform/webview/lazyPanelHost';
import { CITATION_VIEW_TYPE, lazy, RETRIEVAL_VIEW_TYPE } from './lazyModules';
import type { CitationPanels } from './citations/citationPanel';
import type { SourceClient } from './citations/documentSource';
import type * as CitationProtocol from './citations/protocol';
import type * as RetrievalProtocol from './retrieval/protocol';
import type { RetrievalPanels } from './retrieval/retrievalPanel';

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
    const panels = lazyPanels(c.log('webview'));
    this.citationHost = this._register(
      panels(
        CITATION_VIEW_TYPE,
        () => lazy.citationProtocol().citationStateSchema,
        () => this.createCitations(),
      ),
    );
    this.retrievalHost = this._register(
      panels(
        RETRIEVAL_VIEW_TYPE,
        () => lazy.retrievalProtocol().retrievalStateSchema,
        () => this.createRetrieval(),
      ),
    );
    this._register(
      c.commands({
        [CommandIds.answers.openCitation]: async (arg?: unknown) => {
          const action = lazy.citationArgs().parseOpenCitation(arg);
          const opened =
            action.kind === 'qna'
              ? await vscode.commands.executeCommand(CommandIds.qna.open, { id: action.faqId, connectionId: action.connectionId })
              : await this.citations.open(action.target, { pdfPreview: action.pdfPreview }, action.connectionId);
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
    const basics = c.panelBasics('citation');
    const pinned = new PinnedClients(c.connection, c.secrets, c.logger);
    const panels = new (lazy.citationPanel().CitationPanels)({
      ...basics,
      // Each viewer resolves its document on the connection it was opened with (issue 27).
      pin: (to) => {
        const pin = pinned.panel(basics.connectionLabel, to);
        const region = regionOf((c.connection.store.get(pin.id) ?? c.connection.active).target);
        const source = new (lazy.documentSource().DocumentSource)({
          region: () => region,
          // The public download and text operations, for every region (documentSource.ts).
          client: async (): Promise<SourceClient> => await pin.client(),
          download: async (url) => {
            // The client's dispatcher carries the proxy settings; the request itself carries no key.
            const dispatcher = await pin.client().then(
              (client) => client.config.dispatcher,
              () => undefined,
            );
            return lazy.previewDownload().downloadPreview(url, { dispatcher });
          },
          describe: (error) => toUserFacing(error).message,
          log: citationLog,
        });
        return { id: pin.id, name: pin.name, connectionLabel: pin.connectionLabel, source };
      },
      activeConnectionId: () => c.connection.active.id,
    });
    // A switch, a rename, or the removal of a viewer's connection: its title says so.
    const changed = c.connection.store.onDidChange(() => panels.panels.forEach((p) => p.updateTitle()));
    this._register({ dispose: () => changed.dispose() });
    return panels;
  }

  private createRetrieval(): RetrievalPanels {
    const c = this.c;
    return new (lazy.retrievalPanel().RetrievalPanels)({
      ...c.panelBasics('retrieval'),
      region: () => c.connection.region,
      retrieve: async (request) => (await c.connection.getClient()).answers.retrieve(request),
      openDocument: (arg) => Promise.resolve(vscode.commands.executeCommand(CommandIds.answers.openDocument, arg)),
    });
  }
}
