// The Q&A corpus of the benches (qna.bench.ts, indexSnapshot.bench.ts): varied questions (a few thousand
// pseudo-words around real topics, English and Japanese), as a real store has. A corpus where every question
// shares one template is the worst case, noted separately in the docs. Each bench passes its own topics, so
// its corpus, and so its figures, stay what they were.

const SYLLABLES = ['ka', 'ri', 'to', 'mel', 'san', 'dor', 'vi', 'lux', 'pe', 'quon', 'ta', 'bri', 'sol', 'nex', 'ar', 'fi'];
const JA_WORDS = [
  '申請',
  '承認',
  '経費',
  '休暇',
  '会議室',
  '予約',
  '研修',
  '入館',
  '社員証',
  '勤怠',
  '給与',
  '出張',
  '在宅',
  '端末',
  '更新',
  '締め日',
];

/** One of 4,096 pseudo-words. */
export function word(n: number): string {
  return SYLLABLES[n % 16] + SYLLABLES[(n >> 4) % 16] + SYLLABLES[(n >> 8) % 16];
}

export interface QaCorpus {
  /** The topic of question `i`. */
  topic(i: number): string;
  /** Whether question `i` is a Japanese one (its topic is not ASCII). */
  ja(i: number): boolean;
  /** Question `i`: different for every i below 16.7 million. */
  question(i: number): string;
  /** The parts of question `i`: `a` and `c` make it unique, `b` varies the wording. */
  parts(i: number): { a: number; b: number; c: number };
}

export function qaCorpus(topics: readonly string[]): QaCorpus {
  const topic = (i: number) => topics[i % topics.length];
  // eslint-disable-next-line no-control-regex -- any non-ASCII character marks a Japanese topic
  const ja = (i: number) => /[^\x00-\x7f]/.test(topic(i));
  const parts = (i: number) => ({ a: i % 4096, b: (i * 104729) % 4096, c: Math.floor(i / 4096) });
  return {
    topic,
    ja,
    parts,
    question(i) {
      const { a, b, c } = parts(i);
      return ja(i)
        ? `${topic(i)}の${JA_WORDS[b % 16]}について${word(a)}${word(c)}の場合はどうすればよいですか`
        : `How do I ${word(b)} the ${topic(i)} for ${word(a)} ${word(c)}?`;
    },
  };
}
