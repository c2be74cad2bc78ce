// A validation failure never reaches a person in a schema library's words (issue 22, item 11): the service's
// refusal of an over-long question, a tool's bad input, a damaged citation link and a ZodError escaping our own
// checks all read as plain sentences with a next step, in English and in Japanese. Against the real local
// service, whose 400s carry zod's messages.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as l10n from '@vscode/l10n';
import { z } from 'zod';
import type { ApiClient } from '../../../src/api/client';
import { isSchemaWording, plainRefusal } from '../../../src/api/plainRefusal';
import { describeToolError } from '../../../src/ai/toolErrors';
import { parseToolInput, retrieveInput } from '../../../src/ai/toolInput';
import { questionLength, QUESTION_MAX_CHARS } from '../../../src/core/questionLimit';
import { parseOpenCitation } from '../../../src/features/answers/citations/citationArgs';
import { toUserFacing } from '../../../src/platform/errorMessages';
import { startTestService, type TestService } from '../support/localService';

/** zod's and pydantic's default wording, as a person must never read it. */
const RAW =
  /String must contain|Number must be|Expected \w+, received|character\(s\)|Invalid input|\bRequired\b|too_big|invalid_type|should have at most/;
const hints = { setKey: 'Run Set API Key.', unreachable: 'Check the region.' };
const ja = JSON.parse(readFileSync('l10n/bundle.l10n.ja.json', 'utf8')) as Record<string, string>;

async function refusal(run: () => Promise<unknown>): Promise<Error> {
  try {
    await run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the service to refuse');
}

describe('Validation failures in plain words', () => {
  let svc: TestService;
  let client: ApiClient;

  before(async () => {
    svc = await startTestService();
    client = svc.client();
  });
  after(() => svc.stop());
  afterEach(() => l10n.config({ contents: {} }));

  it('an over-long question refused by the service: plain words with the limit and what to do, in English and Japanese', async () => {
    const error = await refusal(() => client.answers.generate({ query: 'x'.repeat(20_000), includeCitations: true }));
    assert.match(error.message, /String must contain at most 2000 character\(s\)/, 'the service answers in zod’s words');
    const english = 'The question is too long: at most 2,000 characters can be sent. Shorten it, then send it again.';
    assert.equal(toUserFacing(error).message, english);
    assert.equal(describeToolError(error, hints).message, english);
    // The stream the chat panel uses is refused the same way.
    const streamed = await refusal(async () => {
      for await (const part of client.answers.stream({ query: 'y'.repeat(2_001) })) void part;
    });
    assert.equal(toUserFacing(streamed).message, english);
    l10n.config({ contents: ja });
    assert.equal(
      toUserFacing(error).message,
      '質問が長すぎます。送信できるのは 2,000 文字までです。短くしてから、もう一度送信してください。',
    );
    assert.doesNotMatch(describeToolError(error, hints).message, RAW);
  });

  it('other refusals in schema wording name the field; a service sentence for people passes unchanged', () => {
    assert.equal(
      plainRefusal('faq.register failed (400): memo: String must contain at most 5000 character(s)'),
      'The service refused the request: memo is too long (at most 5,000 characters). Shorten it and try again.',
    );
    assert.equal(
      plainRefusal('limit: Expected number, received string', undefined),
      'The service refused the request: the value of limit is not valid. Check it and try again.',
    );
    assert.equal(
      plainRefusal('String should have at most 2000 characters', 'body.query'),
      'The question is too long: at most 2,000 characters can be sent. Shorten it, then send it again.',
    );
    assert.match(plainRefusal('Required'), /^The service refused the request as not valid\./);
    assert.equal(plainRefusal('kbNodes.search failed (400): the folder does not exist'), 'the folder does not exist');
    assert.equal(isSchemaWording('The folder does not exist.'), false);
  });

  it('a tool’s bad input, a damaged citation link and a ZodError of our own never show zod’s wording', () => {
    const inputs = [{ question: 'q', scopeIds: [1] }, { question: 'q', maxResults: 'five' }, { question: 42 }, { scopeIds: ['a'] }];
    for (const input of inputs) {
      let message = '';
      try {
        parseToolInput(retrieveInput, input);
      } catch (error) {
        message = describeToolError(error, hints).message;
      }
      assert.ok(message.startsWith('Invalid input: '), message);
      // "Invalid input: " is our own prefix; what follows it must not be zod's.
      assert.doesNotMatch(message.slice('Invalid input: '.length), RAW, JSON.stringify(input));
    }
    for (const arg of [{ citation: { pageNo: { page: 3 } } }, { citation: 'x' }, undefined]) {
      let message = '';
      try {
        parseOpenCitation(arg);
      } catch (error) {
        message = toUserFacing(error).message;
      }
      assert.match(message, /incomplete or damaged .* Open it again from its answer\.$/, message);
      assert.doesNotMatch(message, RAW);
    }
    const zodError = z.object({ question: z.string().max(3) }).safeParse({ question: 'long' }).error!;
    assert.match(toUserFacing(zodError).message, /^Knowledge Desk met data of a shape it does not expect\./);
    assert.doesNotMatch(describeToolError(zodError, hints).message, RAW);
  });

  it('counts a question in code points against the one limit', () => {
    assert.equal(QUESTION_MAX_CHARS, 2_000);
    assert.deepEqual(questionLength(`  ${'😀'.repeat(2_000)}  `), { chars: 2_000, max: 2_000, near: true, over: false });
    assert.deepEqual(questionLength('a'.repeat(1_799)), { chars: 1_799, max: 2_000, near: false, over: false });
    assert.equal(questionLength('a'.repeat(2_001)).over, true);
  });
});
