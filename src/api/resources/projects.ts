// The project of the key (`GET /webapi/v2/projects`, second-hand) and the key check built on it.
import { z } from 'zod';
import type { CallOptions, Requester } from '../requester';
import type { FaqResource } from './faq';
import { endpoint } from '../endpoint';
import { OperationNotOfferedError } from '../errors';

export class ProjectsResource {
  constructor(private readonly client: Requester & { faq: Pick<FaqResource, 'embeddingStatus'> }) {}

  /** Whatever the deployment says about the key's project (any JSON; used only to check the key). */
  current(options?: CallOptions): Promise<unknown> {
    return this.client.requestOptional({ ...endpoint('projects.current'), schema: z.unknown() }, options);
  }

  /**
   * Checks the key with the cheapest call the deployment has: the project, or where that route is missing the
   * Q&A embedding status. Throws the API error (AuthenticationError for a bad key); resolves with the call used.
   */
  async checkKey(options?: CallOptions): Promise<'projects.current' | 'faq.embeddingStatus'> {
    try {
      await this.current(options);
      return 'projects.current';
    } catch (error) {
      if (!(error instanceof OperationNotOfferedError)) throw error;
      await this.client.faq.embeddingStatus(options);
      return 'faq.embeddingStatus';
    }
  }
}
