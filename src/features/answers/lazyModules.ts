// The answers feature's panels, their protocols (zod schemas), the conversation store, the export and the
// preview download load when first needed (a command, a restored panel), not at activation: building the
// schemas costs activation time. The view types are repeated here as literals (checked against the protocols'
// constants by type) so registering serializers loads nothing.
import type * as ChatPanelModule from './chat/chatPanel';
import type * as ChatProtocol from './chat/protocol';
import type * as CitationArgs from './citations/citationArgs';
import type * as CitationPanelModule from './citations/citationPanel';
import type * as CitationProtocol from './citations/protocol';
import type * as DocumentSourceModule from './citations/documentSource';
import type * as ExportModule from './chat/exportMarkdown';
import type * as PreviewDownload from './citations/previewDownload';
import type * as RetrievalPanelModule from './retrieval/retrievalPanel';
import type * as RetrievalProtocol from './retrieval/protocol';
import type * as StoreModule from './chat/conversationStore';

/* eslint-disable @typescript-eslint/no-require-imports -- loaded on first use, not at activation */
export const lazy = {
  panel: (): typeof ChatPanelModule => require('./chat/chatPanel'),
  protocol: (): typeof ChatProtocol => require('./chat/protocol'),
  store: (): typeof StoreModule => require('./chat/conversationStore'),
  markdown: (): typeof ExportModule => require('./chat/exportMarkdown'),
  citationArgs: (): typeof CitationArgs => require('./citations/citationArgs'),
  citationPanel: (): typeof CitationPanelModule => require('./citations/citationPanel'),
  documentSource: (): typeof DocumentSourceModule => require('./citations/documentSource'),
  previewDownload: (): typeof PreviewDownload => require('./citations/previewDownload'),
  citationProtocol: (): typeof CitationProtocol => require('./citations/protocol'),
  retrievalProtocol: (): typeof RetrievalProtocol => require('./retrieval/protocol'),
  retrievalPanel: (): typeof RetrievalPanelModule => require('./retrieval/retrievalPanel'),
};
/* eslint-enable @typescript-eslint/no-require-imports */
export const CHAT_VIEW_TYPE: typeof ChatProtocol.CHAT_VIEW_TYPE = 'knowledgeDesk.chat';
export const CITATION_VIEW_TYPE: typeof CitationProtocol.CITATION_VIEW_TYPE = 'knowledgeDesk.citation';
export const RETRIEVAL_VIEW_TYPE: typeof RetrievalProtocol.RETRIEVAL_VIEW_TYPE = 'knowledgeDesk.retrieval';
