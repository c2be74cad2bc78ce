// Links from the chat to Knowledge Desk's viewers: URIs of the extension's own scheme
// (`<uriScheme>://knowledge-desk.knowledge-desk/<kind>/<label>?…`), opened by its UriHandler. The label
// is the last path segment so a reference in the chat reads as the document's name. No vscode here.

export const EXTENSION_AUTHORITY = 'knowledge-desk.knowledge-desk';

export type ChatLink =
  | { kind: 'citation'; key: string; kbId?: string; pageNo?: number; label: string }
  | { kind: 'document'; kbId: string; pageNo?: number; key?: string; label: string }
  | { kind: 'qna'; id: string; label: string };

export function chatLinkUri(scheme: string, link: ChatLink): string {
  const query = new URLSearchParams();
  if (link.kind === 'qna') query.set('id', link.id);
  else {
    if (link.key) query.set('key', link.key);
    if (link.kbId) query.set('kbId', link.kbId);
    if (link.pageNo) query.set('page', String(link.pageNo));
  }
  const label = encodeURIComponent(link.label.replace(/[/\\]/g, ' ').slice(0, 120) || link.kind);
  return `${scheme}://${EXTENSION_AUTHORITY}/${link.kind}/${label}?${query.toString()}`;
}

/** The link a URI names, or undefined when it is not one of ours (or malformed). */
export function parseChatLink(path: string, queryText: string): ChatLink | undefined {
  const [, kind, rawLabel] = /^\/(citation|document|qna)\/([^/]*)$/.exec(path) ?? [];
  if (!kind) return undefined;
  let label: string;
  try {
    label = decodeURIComponent(rawLabel);
  } catch {
    label = rawLabel;
  }
  const query = new URLSearchParams(queryText);
  const page = Number(query.get('page'));
  const pageNo = Number.isInteger(page) && page >= 1 ? page : undefined;
  const kbId = query.get('kbId')?.trim() || undefined;
  const key = query.get('key')?.trim() || undefined;
  if (kind === 'qna') {
    const id = query.get('id')?.trim();
    return id ? { kind, id, label } : undefined;
  }
  if (kind === 'document') return kbId ? { kind, kbId, pageNo, key, label } : undefined;
  return key || kbId ? { kind: 'citation', key: key ?? '', kbId, pageNo, label } : undefined;
}
