// Hashtags in use, from Q&As and documents together, with their counts (`GET /webapi/hashtags`, public).
import type { CallOptions, Requester } from '../requester';
import { endpoint } from '../endpoint';
import { hashtagCountsSchema, type HashtagCount } from '../schemas/kbOps';

export class HashtagsResource {
  constructor(private readonly client: Requester) {}

  /** Every hashtag in use (without `#`), most used first. */
  inUse(options?: CallOptions): Promise<HashtagCount[]> {
    return this.client.requestOptional({ ...endpoint('hashtags.inUse'), schema: hashtagCountsSchema }, options);
  }
}
