// Opens what a chat link names (src/ai/chatLinks.ts): a citation in the citation viewer, a document at a
// page, a Q&A in its editor. Citations are remembered by key for the viewer (it needs the cited text and
// the answer); after a reload the key is gone and the link's document and page still open.
import * as vscode from 'vscode';
import type { Citation } from '../../api/schemas/answers';
import { EXTENSION_AUTHORITY, parseChatLink } from '../../ai/chatLinks';
import { CommandIds } from '../../platform/commandIds';
import type { Log } from '../../platform/logger';

const MAX_REMEMBERED = 500;

export class ChatLinks implements vscode.UriHandler {
  private readonly citations = new Map<string, { citation: Citation; question: string; answer: string }>();
  private next = 0;

  constructor(private readonly log: Log) {}

  remember(citation: Citation, question: string, answer: string): string {
    const key = `c${++this.next}`;
    this.citations.set(key, { citation, question, answer });
    // Oldest first: a Map keeps insertion order.
    if (this.citations.size > MAX_REMEMBERED) this.citations.delete(this.citations.keys().next().value!);
    return key;
  }

  async handleUri(uri: vscode.Uri): Promise<void> {
    if (uri.authority.toLowerCase() !== EXTENSION_AUTHORITY) return;
    const link = parseChatLink(uri.path, uri.query);
    if (!link) {
      this.log.warn(`ignored a link that is not Knowledge Desk's: ${uri.path}`);
      return;
    }
    if (link.kind === 'qna') {
      await vscode.commands.executeCommand(CommandIds.qna.open, { id: link.id });
      return;
    }
    const kept = link.key ? this.citations.get(link.key) : undefined;
    if (kept && link.kind === 'citation') {
      await vscode.commands.executeCommand(CommandIds.answers.openCitation, {
        citation: kept.citation,
        question: kept.question,
        answer: kept.answer,
      });
      return;
    }
    if (!link.kbId) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t('This citation is from an earlier session: ask the question again to open it.'),
      );
      return;
    }
    await vscode.commands.executeCommand(CommandIds.answers.openDocument, {
      kbId: link.kbId,
      pageNo: link.pageNo,
      title: link.label,
      passageText: kept?.citation.text ?? undefined,
      question: kept?.question || undefined,
    });
  }
}
