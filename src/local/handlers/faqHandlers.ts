import type { Handler } from '../http/context';
import type { Journal } from '../store/journal';

export const FAQS = 'faqs';

export function faqHandlers(journal: Journal): Record<string, Handler> {
  return {
    // Local "embeddings" are built synchronously with each write, so nothing is ever pending.
    'faq.embeddingStatus': async () => {
      const total = journal.collection(FAQS).size;
      return { total, pending: 0, ready: total };
    },
  };
}
