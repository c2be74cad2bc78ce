// A Q&A row of the Q&A tree as another feature's command receives it (as kbNodeElement.ts is for the Knowledge
// Base tree): VS Code hands a tree's context-menu command the row clicked and the rows selected, whichever
// feature registers the command. Generate Tests from Q&As (features/knowledgeTests) reads them with qaRowsOf.

/** The fields of a Q&A row other features read: features/qna/qnaTreeModel.ts QaElement has this shape. */
export interface QaRowElement {
  kind: 'qa';
  item: { id: string; question: string };
}

function qaOf(arg: unknown): QaRowElement['item'] | undefined {
  const row = arg as Partial<QaRowElement> | null | undefined;
  const item = typeof row === 'object' && row?.kind === 'qa' ? row.item : undefined;
  return item && typeof item.id === 'string' && typeof item.question === 'string' ? { id: item.id, question: item.question } : undefined;
}

/** The Q&As of a tree command's arguments (the row clicked, then the selection), each once, in selection order. */
export function qaRowsOf(clicked: unknown, selected: unknown): Array<QaRowElement['item']> {
  const rows = Array.isArray(selected) && selected.length ? selected : [clicked];
  const seen = new Set<string>();
  return rows.flatMap((r) => {
    const qa = qaOf(r);
    if (!qa || seen.has(qa.id)) return [];
    seen.add(qa.id);
    return [qa];
  });
}
