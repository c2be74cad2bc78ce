import type { ApiClient, CallOptions } from '../client';
import { embeddingStatusSchema, type EmbeddingStatus } from '../schemas/faq';

export class FaqResource {
  constructor(private readonly client: ApiClient) {}

  /** Q&A embedding counts; also the cheap authenticated call used to check a key. */
  embeddingStatus(options?: CallOptions): Promise<EmbeddingStatus> {
    return this.client.request(
      { operation: 'faq.embeddingStatus', method: 'GET', path: '/webapi/faq/embedding_status', schema: embeddingStatusSchema },
      options,
    );
  }
}
