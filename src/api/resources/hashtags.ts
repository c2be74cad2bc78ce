// Hashtags in use, from Q&As and documents together, with their counts (`GET /webapi/hashtags`, public).
import type { CallOptions, Requester } from '../requester';
import { hashtagCountsSchema, type HashtagCount } from '../schemas/kbOps';

export class HashtagsResource {
  constructor(private readonly client: Requester) {}

  /** Every hashtag in use (without `#`), most used first. */
  inUse(options?: CallOptions): Promise<HashtagCount[]> {
    return this.client.requestOptional(
      { operation: 'hashtags.inUse', method: 'GET', path: '/webapi/hashtags', schema: hashtagCountsSchema },
      options,
    );
  }
}
