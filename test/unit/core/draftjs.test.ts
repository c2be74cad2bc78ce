import assert from 'node:assert/strict';
import { draftPlainText, draftToMarkdown, isDraftRaw } from '../../../src/core/draftjs';

type Range = [offset: number, length: number, styleOrKey: string | number];

function block(text: string, type = 'unstyled', styles: Range[] = [], entities: Range[] = [], depth = 0) {
  return {
    key: Math.random().toString(36).slice(2, 7),
    text,
    type,
    depth,
    inlineStyleRanges: styles.map(([offset, length, style]) => ({ offset, length, style })),
    entityRanges: entities.map(([offset, length, key]) => ({ offset, length, key })),
    data: {},
  };
}

function md(blocks: unknown[], entityMap: unknown = {}): string {
  return draftToMarkdown({ blocks, entityMap });
}

const para = (text: string, styles: Range[] = [], entities: Range[] = []) => block(text, 'unstyled', styles, entities);

describe('draftToMarkdown', () => {
  describe('blocks', () => {
    it('renders header-one to header-six as # to ######, one line each', () => {
      const names = ['one', 'two', 'three', 'four', 'five', 'six'];
      assert.equal(
        md(names.map((name, index) => block(`H${index + 1}`, `header-${name}`))),
        '# H1\n\n## H2\n\n### H3\n\n#### H4\n\n##### H5\n\n###### H6',
      );
      assert.equal(md([block('Title\nsub #', 'header-one')]), '# Title sub \\#');
    });

    it('renders unordered items with 2 spaces of indent per depth, on consecutive lines', () => {
      const items = [
        block('a', 'unordered-list-item'),
        block('b', 'unordered-list-item', [], [], 1),
        block('c', 'unordered-list-item', [], [], 2),
        block('d', 'unordered-list-item', [], [], 1),
        block('e', 'unordered-list-item'),
      ];
      assert.equal(md(items), '- a\n  - b\n    - c\n  - d\n- e');
    });

    it('numbers ordered items within a run, per level, and restarts after another block', () => {
      const blocks = [
        block('a', 'ordered-list-item'),
        block('b', 'ordered-list-item'),
        block('b1', 'ordered-list-item', [], [], 1),
        block('b2', 'ordered-list-item', [], [], 1),
        block('c', 'ordered-list-item'),
        para('para'),
        block('x', 'ordered-list-item'),
        block('y', 'ordered-list-item'),
      ];
      assert.equal(md(blocks), '1. a\n2. b\n   1. b1\n   2. b2\n3. c\n\npara\n\n1. x\n2. y');
    });

    it('indents children to the content of their parent item and clamps depth jumps', () => {
      const ten = Array.from({ length: 10 }, (_, index) => block(`i${index + 1}`, 'ordered-list-item'));
      assert.match(md([...ten, block('sub', 'unordered-list-item', [], [], 1)]), /\n9\. i9\n10\. i10\n {4}- sub$/);
      // depth 3 right after depth 0 would be an indented code block; it becomes depth 1.
      assert.equal(md([block('first', 'ordered-list-item'), block('deep', 'unordered-list-item', [], [], 3)]), '1. first\n   - deep');
      assert.equal(md([block('orphan', 'unordered-list-item', [], [], 2)]), '- orphan');
    });

    it('starts a new numbering when the list type changes at a level', () => {
      const blocks = [block('one', 'ordered-list-item'), block('dot', 'unordered-list-item'), block('again', 'ordered-list-item')];
      assert.equal(md(blocks), '1. one\n- dot\n1. again');
    });

    it('renders blockquotes with > on every line, consecutive ones as one quote', () => {
      assert.equal(md([block('q1', 'blockquote'), block('q2\nline', 'blockquote'), para('after')]), '> q1\n>\n> q2  \n> line\n\nafter');
    });

    it('merges consecutive code blocks into one fence longer than any backtick run inside', () => {
      const code = { ...block('const a = `x`;', 'code-block'), data: { language: 'ts' } };
      assert.equal(
        md([code, block('', 'code-block'), block('```inner``` *not* _styled_', 'code-block'), para('after')]),
        '````ts\nconst a = `x`;\n\n```inner``` *not* _styled_\n````\n\nafter',
      );
      assert.equal(md([block('x', 'code-block'), para('p'), block('y', 'code-block')]), '```\nx\n```\n\np\n\n```\ny\n```');
      const badLanguage = { ...block('x', 'code-block'), data: { language: 'js\n<script>' } };
      assert.equal(md([badLanguage]), '```\nx\n```');
    });

    it('renders unstyled, paragraph, atomic and unknown types as paragraphs, and skips empty blocks', () => {
      const blocks = [
        block('p1', 'paragraph'),
        block('atom', 'atomic'),
        block('weird', 'my-custom-type'),
        para(''),
        para('   '),
        block('u'),
      ];
      assert.equal(md(blocks), 'p1\n\natom\n\nweird\n\nu');
    });

    it('turns soft newlines into hard breaks, keeping list continuation lines in the item', () => {
      const blocks = [
        para('line one\nline two\n\n  line three'),
        block('item\ncontinued', 'unordered-list-item'),
        block('n1\nn2', 'ordered-list-item'),
      ];
      assert.equal(md(blocks), 'line one  \nline two  \nline three\n\n- item  \n  continued\n1. n1  \n   n2');
    });
  });

  describe('inline styles', () => {
    it('renders BOLD, ITALIC, CODE and STRIKETHROUGH, and ignores UNDERLINE and unknown styles', () => {
      const styles: Range[] = [
        [0, 4, 'BOLD'],
        [5, 6, 'ITALIC'],
        [12, 4, 'CODE'],
        [17, 6, 'STRIKETHROUGH'],
        [24, 5, 'UNDERLINE'],
        [30, 5, 'COLOR-RED'],
      ];
      assert.equal(md([para('bold italic code strike under other', styles)]), '**bold** *italic* `code` ~~strike~~ under other');
    });

    it('nests a range inside another with balanced markers', () => {
      assert.equal(
        md([
          para('all bold with italic inside', [
            [0, 27, 'BOLD'],
            [14, 6, 'ITALIC'],
          ]),
        ]),
        '**all bold with *italic* inside**',
      );
    });

    it('closes and reopens overlapping ranges so markers stay balanced', () => {
      assert.equal(
        md([
          para('one two three', [
            [0, 7, 'BOLD'],
            [4, 9, 'ITALIC'],
          ]),
        ]),
        '**one *two*** *three*',
      );
      // Crossing at a space: the reopened style starts after it.
      assert.equal(
        md([
          para('ab cd', [
            [0, 2, 'BOLD'],
            [1, 4, 'ITALIC'],
          ]),
        ]),
        '**a*b*** *cd*',
      );
      // Crossing inside a word: `_` keeps the reopened italic from merging with the `**` closer.
      assert.equal(
        md([
          para('ab cd.', [
            [0, 4, 'BOLD'],
            [1, 4, 'ITALIC'],
          ]),
        ]),
        '**a*b c***_d_.',
      );
    });

    it('keeps adjacent styles apart and merges identical ranges', () => {
      assert.equal(
        md([
          para('boldital', [
            [0, 4, 'BOLD'],
            [4, 4, 'ITALIC'],
          ]),
        ]),
        '**bold**_ital_',
      );
      assert.equal(
        md([
          para('both', [
            [0, 4, 'BOLD'],
            [0, 4, 'ITALIC'],
            [0, 2, 'BOLD'],
          ]),
        ]),
        '***both***',
      );
    });

    it('moves whitespace at the edges of a styled range outside the markers', () => {
      assert.equal(md([para('bold x', [[0, 5, 'BOLD']])]), '**bold** x');
      assert.equal(md([para('a  italic  b', [[1, 10, 'ITALIC']])]), 'a  *italic*  b');
      assert.equal(md([para('x   y', [[1, 3, 'BOLD']])]), 'x   y');
      assert.equal(md([para('a code b', [[1, 6, 'CODE']])]), 'a `code` b');
    });

    it('leaves punctuation that touches a letter outside the markers (else it would not be emphasis)', () => {
      assert.equal(md([para('これは「重要」です', [[3, 4, 'BOLD']])]), 'これは「**重要**」です');
      assert.equal(md([para('say "hi"!', [[4, 4, 'ITALIC']])]), 'say *"hi"*!');
      assert.equal(md([para('end.Next', [[0, 4, 'BOLD']])]), '**end**.Next');
    });

    it('counts offsets in code points: emoji, ZWJ sequences and CJK', () => {
      // 👨‍👩‍👧 is 5 code points (3 emoji joined by 2 ZWJ); each emoji is one surrogate pair.
      const text = '😀 bold then 👨‍👩‍👧 family 日本語';
      assert.equal(
        md([
          para(text, [
            [2, 4, 'BOLD'],
            [18, 6, 'ITALIC'],
            [25, 3, 'CODE'],
          ]),
        ]),
        '😀 **bold** then 👨‍👩‍👧 *family* `日本語`',
      );
      assert.equal(md([para('🎉🎉ab', [[2, 2, 'BOLD']])]), '🎉🎉**ab**');
    });

    it('picks a code span fence longer than the backticks inside', () => {
      assert.equal(md([para('run `x` now', [[0, 11, 'CODE']])]), '``run `x` now``');
      assert.equal(md([para('`tick', [[0, 5, 'CODE']])]), '`` `tick ``');
    });

    it('wraps a code span in the other styles and never puts markers inside it', () => {
      assert.equal(
        md([
          para('see a*b now', [
            [0, 11, 'BOLD'],
            [4, 3, 'CODE'],
          ]),
        ]),
        '**see `a*b` now**',
      );
    });
  });

  describe('entities', () => {
    const entityMap = {
      0: { type: 'LINK', mutability: 'MUTABLE', data: { url: 'https://example.com/a b_(c)' } },
      1: { type: 'LINK', mutability: 'MUTABLE', data: { href: 'mailto:us@example.com' } },
      2: { type: 'LINK', mutability: 'MUTABLE', data: { url: 'javascript:alert(1)' } },
      3: { type: 'LINK', mutability: 'MUTABLE', data: { url: '/relative' } },
      4: { type: 'LINK', mutability: 'MUTABLE', data: { url: ' java\tscript:alert(1)' } },
    };

    it('renders http(s) and mailto links, escaping the destination, and leaves other schemes as text', () => {
      const text = 'Visit our site or email us or evil or rel or tab';
      const result = md(
        [
          para(
            text,
            [[6, 3, 'BOLD']],
            [
              [6, 8, 0],
              [18, 8, 1],
              [30, 4, 2],
              [38, 3, 3],
              [45, 3, 4],
            ],
          ),
        ],
        entityMap,
      );
      assert.equal(
        result,
        'Visit [**our** site](https://example.com/a%20b_%28c%29) or [email us](mailto:us@example.com) or evil or rel or tab',
      );
      assert.doesNotMatch(result, /javascript/i);
    });

    it('keeps whitespace at the edges of link text outside the brackets', () => {
      const map = { k: { type: 'LINK', data: { url: 'http://x.test/' } } };
      assert.equal(md([para('see  docs  now', [], [[3, 7, 'k']])], map), 'see  [docs](http://x.test/)  now');
      assert.equal(md([para('a   b', [], [[1, 3, 'k']])], map), 'a   b');
    });

    it('renders http(s) images as ![alt](src) and other sources as their text', () => {
      const images = [
        { type: 'IMAGE', data: { src: 'https://example.com/i.png', alt: 'A [chart]' } },
        { type: 'IMAGE', data: { src: 'http://example.com/p.png' } },
        { type: 'IMAGE', data: { src: 'data:image/png;base64,AAAA' } },
        { type: 'image', data: { url: 'https://example.com/u.png', title: 'T' } },
      ];
      const blocks = [
        block(' ', 'atomic', [], [[0, 1, 0]]),
        para('pic [x]', [], [[0, 3, 1]]),
        para('bad', [], [[0, 3, 2]]),
        block(' ', 'atomic', [], [[0, 1, 3]]),
      ];
      assert.equal(
        md(blocks, images),
        '![A \\[chart\\]](https://example.com/i.png)\n\n![pic](http://example.com/p.png) \\[x\\]\n\nbad\n\n![T](https://example.com/u.png)',
      );
    });

    it('renders other entity types (mentions, unknown keys) as their text', () => {
      const map = { m: { type: 'MENTION', data: { url: 'https://x.test' } } };
      assert.equal(
        md(
          [
            para(
              'hi @bob and @ann',
              [],
              [
                [3, 4, 'm'],
                [12, 4, 'missing'],
              ],
            ),
          ],
          map,
        ),
        'hi @bob and @ann',
      );
    });
  });

  describe('escaping', () => {
    const cases: [string, string][] = [
      ['# not a heading', '\\# not a heading'],
      ['- not a list', '\\- not a list'],
      ['+ nor this', '\\+ nor this'],
      ['1. nor this', '1\\. nor this'],
      ['2024) a year', '2024\\) a year'],
      ['> not a quote', '\\> not a quote'],
      ['***', '\\*\\*\\*'],
      ['---', '\\---'],
      ['===', '\\==='],
      ['snake_case and _under_ and a*b', 'snake_case and \\_under\\_ and a\\*b'],
      ['`tick` [link](x) ~~s~~', '\\`tick\\` \\[link\\](x) \\~\\~s\\~\\~'],
      ['<div> a < b AT&T &amp; &#169;', '\\<div> a < b AT&T \\&amp; \\&#169;'],
      ['C:\\Users\\me and \\*', 'C:\\Users\\me and \\\\\\*'],
      ['ends with \\', 'ends with \\\\'],
      ['#hashtag 3.14 e.g. x-y (ok) 100% a+b', '#hashtag 3.14 e.g. x-y (ok) 100% a+b'],
      ['    indented is not code', 'indented is not code'],
    ];
    for (const [text, expected] of cases) {
      it(`escapes ${JSON.stringify(text)} only where needed`, () => {
        assert.equal(md([para(text)]), expected);
      });
    }

    it('escapes block markers at the start of list items and of continuation lines too', () => {
      assert.equal(md([block('# big\n- dash', 'unordered-list-item')]), '- \\# big  \n  \\- dash');
    });
  });

  describe('malformed input', () => {
    it('returns "" for values that are not Draft.js content', () => {
      for (const value of [null, undefined, 'text', 42, [], {}, { blocks: 'x' }, { blocks: null }]) {
        assert.equal(draftToMarkdown(value), '');
      }
    });

    it('skips bad blocks and ranges, and clamps ranges running past the text', () => {
      const blocks = [
        null,
        'string block',
        { type: 'header-one' },
        { text: 42, type: 'unstyled' },
        { text: 'no type', inlineStyleRanges: 'nope', entityRanges: {} },
        {
          text: 'ranges here',
          type: 'unstyled',
          inlineStyleRanges: [
            { offset: -1, length: 3, style: 'BOLD' },
            { offset: 20, length: 2, style: 'BOLD' },
            { offset: 0, length: 0, style: 'BOLD' },
            { offset: 'x', length: 2, style: 'BOLD' },
            { offset: 1.5, length: 2, style: 'ITALIC' },
            { offset: Number.NaN, length: 2, style: 'ITALIC' },
            { offset: 0, length: 2, style: 42 },
            null,
            { offset: 7, length: 100, style: 'BOLD' },
          ],
          entityRanges: [{ offset: 0, length: 6, key: null }, { offset: 0, length: 6 }, 'junk', { offset: 0, length: 6, key: 9 }],
        },
        { text: 'deep', type: 'unordered-list-item', depth: 'three' },
        { text: 'neg', type: 'unordered-list-item', depth: -2 },
      ];
      assert.equal(draftToMarkdown({ blocks, entityMap: 'nope' }), 'no type\n\nranges **here**\n\n- deep\n- neg');
      assert.equal(draftToMarkdown({ blocks: [block('x')] }), 'x', 'entityMap may be missing');
    });

    it('never throws on random garbage', () => {
      let seed = 7;
      const next = () => {
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        return seed / 0x7fffffff;
      };
      const pick = <T>(values: T[]): T => values[Math.floor(next() * values.length)]!;
      const junk = (): unknown =>
        pick<unknown>([null, undefined, -1, 0, 3, 1e9, Number.NaN, 'BOLD', 'LINK', '😀a\nb', {}, [], true, { url: 'https://x.test' }]);
      for (let run = 0; run < 500; run++) {
        const blocks = Array.from({ length: Math.floor(next() * 5) }, () => ({
          text: pick([junk(), 'a😀 b*c_d\ne', '']),
          type: pick([junk(), 'header-two', 'ordered-list-item', 'code-block', 'blockquote']),
          depth: junk(),
          inlineStyleRanges: pick([junk(), [{ offset: junk(), length: junk(), style: pick(['BOLD', 'ITALIC', 'CODE', junk()]) }]]),
          entityRanges: pick([junk(), [{ offset: junk(), length: junk(), key: pick([0, '0', junk()]) }]]),
          data: junk(),
        }));
        const entityMap = pick([
          junk(),
          { 0: { type: pick(['LINK', 'IMAGE', junk()]), data: pick([junk(), { url: junk(), src: junk() }]) } },
        ]);
        assert.equal(typeof draftToMarkdown({ blocks, entityMap }), 'string');
      }
    });
  });
});

describe('isDraftRaw', () => {
  it('accepts objects with a blocks array and nothing else', () => {
    assert.equal(isDraftRaw({ blocks: [], entityMap: {} }), true);
    assert.equal(isDraftRaw({ blocks: [] }), true);
    for (const value of [null, undefined, 'x', [], {}, { blocks: {} }, { blocks: 'x' }]) assert.equal(isDraftRaw(value), false);
  });
});

describe('draftPlainText', () => {
  it('joins the block texts with newlines', () => {
    assert.equal(draftPlainText({ blocks: [para('a'), { type: 'x' }, para('b😀')] }), 'a\n\nb😀');
    assert.equal(draftPlainText('nope'), '');
  });
});
