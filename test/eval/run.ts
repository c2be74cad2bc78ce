// npm run eval: the retrieval dev set (test/eval/questions.json) over the Debian FAQ and Developer's Reference
// in English and Japanese (install.sh puts them in place). The documents go into a fresh local service in its
// own process (real upload, extraction and indexing); each question is asked through /webapi/retrieval and
// /webapi/generative_answer, and the same pages are searched by a plain BM25 in this process as the baseline.
// Prints Recall@1/3/5 and MRR per language and kind beside the baseline, the answer side (first citation on
// the expected page) and how many questions outside the documents got an answer anyway.
// --smoke (npm test): the tiny fixture documents in test/eval/fixtures instead; fails only when the run breaks
// or a fixture question that shares its page's words is not found by either side.
// --misses: lists the questions each side did not find in its top 5.
// --service=PATH: another build of the local service (e.g. a baseline commit's dist/local.js) instead of dist/local.js.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fmt, table } from '../bench/support';
import { closeCorpus, DEBIAN_DOCUMENTS, loadCorpus, type EvalDocument } from './corpus';
import { PlainBm25, type PageRef } from './plainBm25';
import { evalSetSchema, figures, rankOf, SLICES, type AnsweredQuestion, type RankFigures } from './scoring';

const smoke = process.argv.includes('--smoke');
const showMisses = process.argv.includes('--misses');
const service = process.argv.find((a) => a.startsWith('--service='))?.slice('--service='.length);
/** A table-of-contents line quoted in an answer: dot leaders before a page number. */
const CONTENTS_LINE = /(?:[.．·・…‥]\s?){4,}\s*\d{1,4}/;
const here = path.dirname(new URL(import.meta.url).pathname);
const FIXTURES: EvalDocument[] = [
  { name: 'handbook.en.txt', lang: 'en', path: path.join(here, 'fixtures/handbook.en.txt') },
  { name: 'handbook.ja.txt', lang: 'ja', path: path.join(here, 'fixtures/handbook.ja.txt') },
];
const RETRIEVED = 20;

interface Outcome {
  q: AnsweredQuestion;
  service: number;
  bm25: number;
  answered: boolean;
  citedPage: boolean;
  citedDocument: boolean;
}

async function main(): Promise<void> {
  const docs = smoke ? FIXTURES : DEBIAN_DOCUMENTS;
  const missing = docs.filter((d) => !existsSync(d.path));
  if (missing.length) {
    console.error(`Missing: ${missing.map((d) => d.path).join(', ')}\nInstall the documents first: bash test/eval/install.sh`);
    process.exit(2);
  }
  const set = evalSetSchema.parse(
    JSON.parse(await readFile(path.join(here, smoke ? 'fixtures/questions.json' : 'questions.json'), 'utf8')),
  );
  const corpus = await loadCorpus(docs, service);
  try {
    const bm25 = new PlainBm25();
    let pageCount = 0;
    for (const [document, pages] of corpus.pages)
      for (const p of pages) {
        bm25.add({ document, pageNo: p.pageNo }, p.text);
        pageCount++;
      }
    console.log(
      `${docs.length} documents, ${pageCount} pages, uploaded and processed in ${fmt(corpus.uploadMs / 1000)} s; ${set.questions.length} questions`,
    );
    const outcomes: Outcome[] = [];
    let noneAnswered = 0;
    let quotingContents = 0;
    const noneAnsweredList: string[] = [];
    for (const q of set.questions) {
      const answer = await corpus.client.answers.generate({ query: q.question, includeCitations: true });
      const answered = (answer.confidence ?? 0) > 0; // the honest "no answer" has confidence 0
      if (CONTENTS_LINE.test(answer.answer)) quotingContents++;
      if (q.kind === 'none') {
        if (answered) {
          noneAnswered++;
          noneAnsweredList.push(q.question);
        }
        continue;
      }
      const hits = await corpus.client.answers.retrieve({ question: q.question, maxDocumentClues: RETRIEVED });
      const serviceRanked: PageRef[] = hits.map((h) => ({ document: h.title, pageNo: h.pageNo }));
      const first = answer.citations[0];
      outcomes.push({
        q,
        service: rankOf(q, serviceRanked),
        bm25: rankOf(q, bm25.search(q.question, RETRIEVED)),
        answered,
        citedDocument: first?.title === q.document,
        citedPage: first?.title === q.document && q.pages.includes(first.pageNo ?? -1),
      });
    }
    report(outcomes, set.questions.length - outcomes.length, noneAnswered, noneAnsweredList);
    console.log(`Answers quoting a table-of-contents line (dot leaders): ${quotingContents} of ${set.questions.length} (goal 0)`);
    if (smoke) {
      const lost = outcomes.filter((o) => o.q.kind === 'lexical' && (!o.service || o.service > 5 || !o.bm25 || o.bm25 > 5));
      if (lost.length) throw new Error(`smoke: lexical fixture questions not in the top 5: ${lost.map((o) => o.q.id).join(', ')}`);
    }
  } finally {
    await closeCorpus(corpus);
  }
}

function report(outcomes: Outcome[], noneCount: number, noneAnswered: number, noneAnsweredList: string[]): void {
  const rows: Array<Array<string | number>> = [];
  for (const slice of SLICES) {
    const sel = outcomes.filter((o) => slice.test(o.q));
    if (!sel.length) continue;
    const s = figures(sel.map((o) => o.service));
    const b = figures(sel.map((o) => o.bm25));
    const cells = (f: RankFigures) => [f.r1, f.r3, f.r5, f.mrr];
    rows.push([slice.name, String(sel.length), ...cells(s), '|', ...cells(b)]);
  }
  table(
    `Retrieval, expected page among distinct pages (local service /webapi/retrieval, ${RETRIEVED} clues, default weights) vs plain BM25 over the same extracted pages`,
    ['slice', 'n', 'R@1', 'R@3', 'R@5', 'MRR', '', 'BM25 R@1', 'BM25 R@3', 'BM25 R@5', 'BM25 MRR'],
    rows,
  );
  const answerRows: Array<Array<string | number>> = [];
  for (const slice of SLICES) {
    const sel = outcomes.filter((o) => slice.test(o.q));
    if (!sel.length) continue;
    const share = (f: (o: Outcome) => boolean) => sel.filter(f).length / sel.length;
    answerRows.push([slice.name, String(sel.length), share((o) => o.answered), share((o) => o.citedDocument), share((o) => o.citedPage)]);
  }
  table(
    'Generative answers (/webapi/generative_answer, local extractive): answered (confidence > 0), first citation on the expected document / page',
    ['slice', 'n', 'answered', '1st citation: document', '1st citation: page'],
    answerRows,
  );
  console.log(`\nQuestions outside the documents answered anyway: ${noneAnswered} of ${noneCount} (goal 0)`);
  for (const q of noneAnsweredList) console.log(`  - ${q}`);
  if (showMisses) {
    console.log('\nNot in the top 5 (service | plain BM25):');
    for (const o of outcomes)
      if (!(o.service >= 1 && o.service <= 5) || !(o.bm25 >= 1 && o.bm25 <= 5))
        console.log(`  ${o.q.id} [${o.q.lang} ${o.q.kind}] ${o.q.question} — service ${o.service || '-'} | bm25 ${o.bm25 || '-'}`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
