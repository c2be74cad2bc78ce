// Every recorded-style stream must give the same events, answer and fields however the network
// cuts it: at every byte, byte by byte, and at seeded random places.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readAnswerStream } from '../../../src/api/stream/answerStream';
import { seededRandom } from '../../../src/core/seededRandom';

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'streams');

const citation = {
  index: 1,
  clueId: 'clue-1',
  source: 'refunds.pdf',
  title: 'Refund policy',
  pageNo: 3,
  knowledgeBaseId: 'kb-1',
  faqId: '',
  url: 'https://example.com/refunds.pdf',
  text: 'Returns are accepted within 30 days.',
};
const clue = { clueId: 'clue-1', documentName: 'refunds.pdf', pageNo: 3, text: 'Returns are accepted within 30 days.' };

interface Expected {
  file: string;
  deltas: string[];
  /** Indexes of the events that must say `replaced`. */
  replacedAt?: number[];
  answer: string;
  merged: Record<string, unknown>;
}

const CASES: Expected[] = [
  {
    file: 'cumulative-en.ndjson',
    deltas: ['', 'The **refund** policy', ' allows returns within 30 days', ' [1].\n\n- Keep the receipt {and} the "box" \\', ' tag'],
    answer: 'The **refund** policy allows returns within 30 days [1].\n\n- Keep the receipt {and} the "box" \\ tag',
    merged: {
      answerHash: 'ah-123',
      confidence: 0.91,
      clues: [clue],
      citations: [citation],
      threadId: '6f1c2a5e-0b7d-4d8e-9a51-1f3e2c4b5a69',
      intent: 'refund_policy',
      fuQuestion: 'How long does a refund take?',
      model: 'local-extractive',
    },
  },
  {
    file: 'cumulative-ja-emoji.ndjson',
    deltas: ['返品は', '購入後30日以内😀', 'に可能です。🎉 詳細は「規約」を参照👍🏽 👨‍👩‍👧', '\nありがとう🙏'],
    answer: '返品は購入後30日以内😀に可能です。🎉 詳細は「規約」を参照👍🏽 👨‍👩‍👧\nありがとう🙏',
    merged: {
      intent: '返品',
      threadId: 'スレッド-1',
      fuQuestion: '返金はいつですか？',
      clues: [{ clueId: '手順-1', text: '返品は30日以内' }],
    },
  },
  {
    file: 'back-to-back.json',
    deltas: ['Braces { and } in "quotes"', ' and a backslash \\ then }{ inside', '.'],
    answer: 'Braces { and } in "quotes" and a backslash \\ then }{ inside.',
    merged: { clues: [{ id: 'x', text: 'nested {"a":[1,{"b":2}]} \\"' }], threadId: 't-9' },
  },
  {
    file: 'sse.txt',
    deltas: ['Hello', ', world', '!'],
    answer: 'Hello, world!',
    merged: { threadId: 'sse-thread', intent: 'greeting', citations: [] },
  },
  {
    file: 'delta-en.ndjson',
    deltas: ['To reset', ' your password, open ', '**Settings** → *Security*.', '\n\n1. Click', ' **Reset**', ''],
    answer: 'To reset your password, open **Settings** → *Security*.\n\n1. Click **Reset**',
    merged: {
      clues: [{ clueId: 'c-7', title: 'Account security' }],
      threadId: 'd-1',
      fuQuestion: 'How do I enable 2FA?',
      intent: 'password_reset',
    },
  },
  {
    file: 'draftjs-object.ndjson',
    deltas: ['## Steps', '\n\n1. Open the **sett**', '', ''],
    replacedAt: [2],
    answer: '## Steps\n\n1. Open the **settings** page\n2. Choose 安全 🔒\n\nSee [docs](https://example.com/docs)',
    merged: {
      answerFormat: 'DRAFTJS',
      clues: [{ clueId: 'c-1' }],
      threadId: 'dj-1',
      intent: 'settings',
      fuQuestion: 'Where is the settings page?',
    },
  },
  {
    file: 'draftjs-string.ndjson',
    deltas: ['🎉 **Great news:** refunds are free', '\n\n- 返金は**無料**です\n- Ask [support@example.com](mailto:support@example.com)'],
    answer: '🎉 **Great news:** refunds are free\n\n- 返金は**無料**です\n- Ask [support@example.com](mailto:support@example.com)',
    merged: { threadId: 'ds-1', citations: [citation] },
  },
  {
    file: 'final-fields.ndjson',
    deltas: ['Partial', ' answer', ', complete.', ''],
    answer: 'Partial answer, complete.',
    merged: {
      clues: [clue],
      citations: [citation],
      threadId: 'ff-2',
      intent: 'final_intent',
      fuQuestion: 'Anything else?',
    },
  },
  {
    file: 'array.json',
    deltas: ['Array ', 'stream', ', pretty-printed.'],
    answer: 'Array stream, pretty-printed.',
    merged: { threadId: 'arr-1' },
  },
];

interface Outcome {
  events: { answer: string; delta: string; replaced: boolean; object: Record<string, unknown> }[];
  merged: Record<string, unknown>;
}

async function* chunks(bytes: Uint8Array, cuts: number[]): AsyncGenerator<Uint8Array> {
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    yield bytes.slice(from, cut);
    from = cut;
  }
}

async function read(bytes: Uint8Array, cuts: number[]): Promise<Outcome> {
  const outcome: Outcome = { events: [], merged: {} };
  for await (const event of readAnswerStream(chunks(bytes, cuts))) {
    outcome.events.push({ answer: event.answer, delta: event.delta, replaced: event.replaced, object: event.object });
    outcome.merged = event.merged;
  }
  return outcome;
}

describe('readAnswerStream on recorded-style streams, cut anywhere', () => {
  for (const expected of CASES) {
    describe(expected.file, () => {
      const bytes = new Uint8Array(readFileSync(join(FIXTURES, expected.file)));
      let whole: Outcome;

      before(async () => {
        whole = await read(bytes, []);
      });

      it('gives the expected answer, deltas and fields when read in one piece', () => {
        assert.deepEqual(
          whole.events.map((event) => event.delta),
          expected.deltas,
        );
        const replaced = whole.events.flatMap((event, index) => (event.replaced ? [index] : []));
        assert.deepEqual(replaced, expected.replacedAt ?? []);
        assert.equal(whole.events.at(-1)!.answer, expected.answer);
        assert.deepEqual(whole.merged, { ...expected.merged, answer: expected.answer });
        if (replaced.length === 0) assert.equal(expected.deltas.join(''), expected.answer);
      });

      it('gives the same result when cut into two chunks at every byte position', async () => {
        for (let cut = 0; cut <= bytes.length; cut++) {
          assert.deepEqual(await read(bytes, [cut]), whole, `cut at byte ${cut}`);
        }
      });

      it('gives the same result when fed one byte at a time', async () => {
        const cuts = Array.from({ length: bytes.length - 1 }, (_, index) => index + 1);
        assert.deepEqual(await read(bytes, cuts), whole);
      });

      it('gives the same result for seeded random multi-cuts (including empty chunks)', async () => {
        for (let seed = 1; seed <= 40; seed++) {
          const next = seededRandom(seed); // a failing cut replays from its seed
          const count = 1 + Math.floor(next() * 12);
          const cuts = Array.from({ length: count }, () => Math.floor(next() * (bytes.length + 1))).sort((a, b) => a - b);
          assert.deepEqual(await read(bytes, cuts), whole, `seed ${seed}, cuts ${cuts.join(',')}`);
        }
      });
    });
  }

  it('has a fixture with multi-byte characters that the two-chunk cuts split mid-character', () => {
    // Guards the point of the exercise: some cut must fall inside a UTF-8 sequence.
    const bytes = readFileSync(join(FIXTURES, 'cumulative-ja-emoji.ndjson'));
    const continuation = [...bytes].filter((byte) => (byte & 0xc0) === 0x80).length;
    assert.ok(continuation > 50, `only ${continuation} continuation bytes`);
  });
});
