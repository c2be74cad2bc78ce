// Retrieval figures: (1) latency over 10,000 synthetic passages (mixed English and Japanese, 300–800
// characters, plus 32 "needle" passages asked with reworded questions) — the local index's search (its own
// inverted index, scoring exactly as MiniSearch, fused with lexical-hash-v1 vectors, and BM25 alone), the same
// through HTTP from a local service in its own process, and a textbook BM25 (same tokenizer) over the same passages as the baseline;
// (2) quality on the seeded sample documents: Recall@3 and MRR with fusion (9/1/1) and BM25 alone (9/0/0).
import { Agent } from 'undici';
import yazl from 'yazl';
import { ApiClient } from '../../src/api/client';
import type { Extraction } from '../../src/local/extract/types';
import type { Weights } from '../../src/local/search/fusion';
import { RetrievalIndex } from '../../src/local/search/retrievalIndex';
import { tokenize, tokenSet } from '../../src/local/search/tokenizer';
import { SAMPLE_QUESTIONS } from '../fixtures/retrieval/questions';
import { SAMPLES } from '../fixtures/retrieval/seededService';
import { startLocalProcess } from './localProcess';
import { percentile, rng, sized, table, timeEach, waitForSeededSamples } from './support';

const PASSAGES = Number(process.env.KD_BENCH_PASSAGES ?? 10_000);
const PAGES_PER_DOC = 10;
const SEARCHES = sized('KD_BENCH_SEARCHES', 300, 20);

// ---- synthetic corpus ------------------------------------------------------------------------------
const EN_BASE =
  'the of and to in for is on that by with as at from are be this it an or which employees policy request approval report office travel expense manager team project system account access password laptop meeting room schedule training budget invoice customer contract service support network printer badge parking holiday leave salary payment deadline review security update software license device form portal email building floor visitor delivery warehouse shipment vendor supplier quality audit safety insurance benefit pension tax receipt refund transfer department branch region quarter annual monthly weekly daily morning evening'.split(
    ' ',
  );
const SYL = ['ka', 'ri', 'to', 'mel', 'san', 'dor', 'vi', 'lux', 'pe', 'quon', 'ta', 'bri', 'sol', 'nex', 'ar', 'fi', 'mo', 'zen'];
const EN_VOCAB = [
  ...EN_BASE,
  ...Array.from({ length: 3000 }, (_, i) => SYL[i % 18] + SYL[Math.floor(i / 18) % 18] + (i >= 324 ? SYL[Math.floor(i / 324) % 18] : '')),
];
const JA_VOCAB =
  '申請 承認 経費 休暇 会議室 予約 研修 入館 社員証 勤怠 給与 出張 在宅 端末 更新 締め日 部署 上司 契約 請求書 顧客 納品 倉庫 配送 取引先 品質 監査 安全 保険 福利厚生 年金 税金 領収書 返金 振込 支店 地域 四半期 年次 月次 週次 毎日 午前 午後 規程 手続き 担当者 窓口 システム アカウント パスワード ネットワーク プリンター 駐車場 祝日 給料 支払い 期限 確認 変更 登録 削除 通知 提出 保管 利用 対象 条件 金額 上限 方法 場合 書類 資料 説明 案内'.split(
    ' ',
  );
const JA_JOIN = ['の', 'は', 'を', 'に', 'で', 'と', 'が'];
const JA_END = ['してください。', 'が必要です。', 'となります。', 'を確認します。', 'は認められません。', 'を行います。'];

function zipf(r: () => number, n: number): number {
  return Math.min(n - 1, Math.floor(n * Math.pow(r(), 2.2)));
}
function enSentence(r: () => number): string {
  const n = 8 + Math.floor(r() * 14);
  const words = Array.from({ length: n }, () => EN_VOCAB[zipf(r, EN_VOCAB.length)]);
  return words[0][0].toUpperCase() + words.join(' ').slice(1) + '.';
}
function jaSentence(r: () => number): string {
  const n = 3 + Math.floor(r() * 5);
  let s = '';
  for (let i = 0; i < n; i++) s += JA_VOCAB[zipf(r, JA_VOCAB.length)] + (i < n - 1 ? JA_JOIN[Math.floor(r() * JA_JOIN.length)] : '');
  return s + JA_END[Math.floor(r() * JA_END.length)];
}
function passage(r: () => number): string {
  const target = 300 + Math.floor(r() * 500);
  const kind = r();
  let text = '';
  while (text.length < target - 60) {
    const ja = kind < 0.4 || (kind < 0.5 && r() < 0.5);
    text += ja ? jaSentence(r) : (text ? ' ' : '') + enSentence(r);
  }
  return text.slice(0, 800);
}

// 32 needles: a unique fact in a passage of filler, asked in other words.
const NEEDLES: Array<[fact: string, query: string]> = [
  [
    'The Orion project budget for 2025 was approved at 4.2 million dollars by the finance board.',
    'how much money did finance approve for project Orion',
  ],
  [
    'Forklift drivers must renew their certification every 18 months at the Osaka training center.',
    'how often is forklift certification renewed',
  ],
  ['Lost access cards are replaced at the security desk on floor 3 for a fee of 2,000 yen.', 'fee to replace a lost access card'],
  ['The cafeteria serves vegetarian curry every Wednesday and fish on Fridays.', 'which day does the cafeteria serve vegetarian curry'],
  ['Shipping labels for Europe are printed with the Zebra printer in bay 12.', 'printer for European shipping labels'],
  ['Interns receive a monthly transport stipend of 15,000 yen paid with their salary.', 'transport stipend for interns'],
  ['Quarterly audit reports are archived in the compliance vault for seven years.', 'how long are audit reports kept in the vault'],
  ['The Nagoya branch moved to the Sakura Tower on the 21st floor in March.', 'where is the Nagoya branch office now'],
  ['Firmware updates for badge readers are installed every second Sunday night.', 'when do badge readers get firmware updates'],
  ['The helpdesk chatbot is called Miko and answers in English and Japanese.', 'name of the helpdesk chatbot'],
  ['Bicycle parking permits are issued by the facilities team within five working days.', 'how long to get a bicycle parking permit'],
  [
    'Expense claims in foreign currency use the exchange rate of the purchase date.',
    'which exchange rate applies to foreign currency expense claims',
  ],
  ['Server room temperature alarms trigger above 27 degrees Celsius.', 'temperature that triggers the server room alarm'],
  ['The annual hackathon takes place in the Kyoto office every November.', 'where and when is the hackathon'],
  ['Printer toner is ordered through the Lumen supplies catalogue.', 'how do I order toner for the printer'],
  ['Visitors to the lab must wear safety glasses and sign the Gamma register.', 'what must lab visitors sign'],
  ['新入社員研修は四月の第一週に横浜の研修センターで行われます。', '新人研修はどこで行われますか'],
  ['健康診断は毎年十月に本社の五階で実施されます。', '健康診断の時期と場所'],
  ['社用車の鍵は総務部の金庫で管理されています。', '社用車の鍵はどこにありますか'],
  ['在宅勤務の通信費として毎月三千円が支給されます。', '在宅勤務の手当はいくら'],
  ['名刺の発注は広報部の山田さんが担当しています。', '名刺を注文したいときの担当者'],
  ['年末の大掃除は十二月二十七日の午後に行います。', '大掃除はいつですか'],
  ['防災訓練では屋上のヘリポートに集合します。', '防災訓練の集合場所'],
  ['海外出張の航空券は旅行代理店のサクラトラベルで手配します。', '海外出張の航空券の手配先'],
  ['傘の貸し出しは受付で一日単位で行っています。', '傘を借りられる場所'],
  ['社内報は毎月十五日に電子メールで配信されます。', '社内報の配信日'],
  ['観葉植物の水やりは清掃業者が毎週月曜日に行います。', '植物に水をあげるのは誰'],
  ['給湯室のコーヒーマシンは毎朝八時に自動洗浄されます。', 'コーヒーマシンの洗浄時間'],
  ['会議室Aのプロジェクターは貸出禁止です。', 'プロジェクターは借りられますか'],
  ['入館証を忘れた場合は警備室で仮カードを受け取ってください。', '入館証を忘れたらどうする'],
  ['駐輪場の利用には自転車の登録シールが必要です。', '自転車を停めるのに必要なもの'],
  ['退職者のアカウントは最終出社日の翌日に停止されます。', '退職した人のアカウントはいつ止まる'],
];

interface Corpus {
  texts: string[];
  needleAt: number[];
}

function corpus(): Corpus {
  const r = rng(42);
  const texts = Array.from({ length: PASSAGES }, () => passage(r));
  const needleAt = NEEDLES.map((_, i) => Math.floor(((i + 0.5) * PASSAGES) / NEEDLES.length));
  NEEDLES.forEach(([fact], i) => (texts[needleAt[i]] = `${passage(r).slice(0, 200)} ${fact} ${passage(r).slice(0, 250)}`.slice(0, 800)));
  return { texts, needleAt };
}

// ---- the baseline: a textbook BM25 (k1 1.2, b 0.75) over the same tokenizer ---------------------------
class TextbookBm25 {
  private readonly postings = new Map<string, number[]>();
  private readonly lengths: number[] = [];
  private total = 0;
  add(text: string): void {
    const doc = this.lengths.length;
    const tokens = tokenize(text);
    const tf = new Map<string, number>();
    for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
    for (const [t, n] of tf) {
      let p = this.postings.get(t);
      if (!p) this.postings.set(t, (p = []));
      p.push(doc, n);
    }
    this.lengths.push(tokens.length);
    this.total += tokens.length;
  }
  search(query: string, k: number): number[] {
    const n = this.lengths.length;
    const avg = this.total / n;
    const scores = new Float64Array(n);
    const touched: number[] = [];
    for (const term of tokenSet(query)) {
      const p = this.postings.get(term);
      if (!p) continue;
      const df = p.length / 2;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      for (let i = 0; i < p.length; i += 2) {
        const doc = p[i];
        const tf = p[i + 1];
        if (scores[doc] === 0) touched.push(doc);
        scores[doc] += (idf * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * this.lengths[doc]) / avg));
      }
    }
    return touched.sort((a, b) => scores[b] - scores[a]).slice(0, k);
  }
}

function heapMb(): number {
  (globalThis as { gc?: () => void }).gc?.();
  // Vectors live in typed arrays outside the JS heap: count both.
  const m = process.memoryUsage();
  return (m.heapUsed + m.arrayBuffers) / 2 ** 20;
}

async function latency(): Promise<void> {
  const { texts, needleAt } = corpus();
  const queries = [
    ...NEEDLES.map(([, q]) => q),
    'expense approval deadline',
    'laptop password reset',
    '経費 申請 期限',
    '会議室 予約 変更',
    'travel insurance refund',
    'security audit report',
    'printer network access',
    '支払い 振込 確認',
  ];
  const docs: Extraction[] = [];
  for (let d = 0; d * PAGES_PER_DOC < texts.length; d++)
    docs.push({ kind: 'text', pages: texts.slice(d * PAGES_PER_DOC, (d + 1) * PAGES_PER_DOC).map((text, i) => ({ pageNo: i + 1, text })) });

  let heap = heapMb();
  let t = performance.now();
  const index = new RetrievalIndex();
  docs.forEach((doc, d) => index.add(`doc-${d}`, `hash-${d}`, `Document ${d}`, doc));
  const localBuild = performance.now() - t;
  const localHeap = heapMb() - heap;
  if (index.passageCount !== texts.length) throw new Error(`expected one passage per page, got ${index.passageCount}`);
  heap = heapMb();
  t = performance.now();
  const textbook = new TextbookBm25();
  for (const text of texts) textbook.add(text);
  const textbookBuild = performance.now() - t;
  const textbookHeap = heapMb() - heap;

  const passageIndex = (nodeId: string, pageNo: number) => Number(nodeId.slice(4)) * PAGES_PER_DOC + pageNo - 1;
  const localTop = (q: string, w: Weights) =>
    index
      .search(q, w, () => true)
      .slice(0, 10)
      .map((h) => passageIndex(h.passage.nodeId, h.passage.pageNo));
  const needleTop1 = (top: (q: string) => number[]) => NEEDLES.filter(([, q], i) => top(q)[0] === needleAt[i]).length;
  const fused: Weights = { bm25: 9, text: 1, title: 0 };
  const bm25: Weights = { bm25: 9, text: 0, title: 0 };
  const rows: Array<Array<string | number>> = [];
  for (const [name, fn, build, mb] of [
    ['local index, fused 9/1/0 (BM25 + lexical vectors)', (q: string) => localTop(q, fused), localBuild, localHeap],
    ['local index, BM25 only 9/0/0', (q: string) => localTop(q, bm25), localBuild, localHeap],
    ['textbook BM25, same tokenizer (baseline)', (q: string) => textbook.search(q, 10), textbookBuild, textbookHeap],
  ] as const) {
    for (const q of queries) fn(q); // warm-up
    const times = await timeEach(SEARCHES, async (i) => fn(queries[i % queries.length]));
    rows.push([name, build, mb, percentile(times, 50), percentile(times, 95), `${needleTop1(fn)}/${NEEDLES.length}`]);
  }

  // The same passages through HTTP: 1,000 text files of 10 pages (form feeds) uploaded as one ZIP to a
  // service in its own process (one journal write for all of them), then processed and indexed there.
  const zip = new yazl.ZipFile();
  docs.forEach((doc, d) => zip.addBuffer(Buffer.from(doc.pages.map((p) => p.text).join('\n\f')), `doc-${String(d).padStart(4, '0')}.txt`));
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  {
    const svc = await startLocalProcess();
    const client = new ApiClient({
      baseUrl: svc.url,
      apiKey: svc.apiKey,
      dispatcher: new Agent({ keepAliveTimeout: 30_000 }),
      timeoutMs: 600_000,
    });
    try {
      t = performance.now();
      await client.kbNodes.upload({ file: { data: Buffer.concat(chunks), contentType: 'application/zip' }, fileName: 'synthetic.zip' });
      for (let passages = 0; passages < texts.length;) {
        await new Promise((r) => setTimeout(r, 500));
        const res = await fetch(`${svc.url}/_local/info`, { headers: { 'API-KEY': svc.apiKey } });
        passages = ((await res.json()) as { counts: Record<string, number> }).counts['retrieval.passages'] ?? 0;
        if (performance.now() - t > 15 * 60_000) throw new Error(`only ${passages} passages indexed after 15 minutes`);
      }
      const ingest = performance.now() - t;
      for (const [name, w] of [
        ['HTTP /webapi/retrieval, fused 9/1/0, maxDocumentClues 10', fused],
        ['HTTP /webapi/retrieval, BM25 only 9/0/0', bm25],
      ] as const) {
        const ask = (q: string) =>
          client.answers.retrieve({
            question: q,
            maxDocumentClues: 10,
            bm25_score_weight: w.bm25,
            text_vector_score_weight: w.text,
            title_vector_score_weight: w.title,
          });
        for (const q of queries) await ask(q);
        const times = await timeEach(SEARCHES, (i) => ask(queries[i % queries.length]));
        let top1 = 0;
        for (const [i, [, q]] of NEEDLES.entries()) {
          const [hit] = await ask(q);
          if (hit && passageIndex(hit.title.replace(/\.txt$/, '').replace(/^doc-0*(?=\d)/, 'doc-'), hit.pageNo) === needleAt[i]) top1++;
        }
        rows.push([name, ingest, NaN, percentile(times, 50), percentile(times, 95), `${top1}/${NEEDLES.length}`]);
      }
    } finally {
      await client.config.dispatcher?.close();
      await svc.stop();
    }
  }
  table(
    `Retrieval over ${texts.length.toLocaleString('en')} passages (EN/JA, 300–800 chars), ${SEARCHES} searches (ms; build: ms — for HTTP, uploading, processing and indexing ${Math.ceil(texts.length / PAGES_PER_DOC).toLocaleString('en')} files)`,
    ['', 'build', 'memory MB', 'p50', 'p95', 'needle top-1'],
    rows,
  );
}

async function quality(): Promise<void> {
  const svc = await startLocalProcess(['--seed', SAMPLES]);
  const client = new ApiClient({ baseUrl: svc.url, apiKey: svc.apiKey });
  try {
    await waitForSeededSamples(client);
    const rows: Array<Array<string | number>> = [];
    for (const [name, w] of [
      ['fusion 9/1/1 (BM25 + content + title vectors)', [9, 1, 1]],
      ['default 9/1/0', [9, 1, 0]],
      ['BM25 only 9/0/0', [9, 0, 0]],
    ] as const) {
      let recall = 0;
      let pageRecall = 0;
      let mrr = 0;
      const misses: string[] = [];
      for (const q of SAMPLE_QUESTIONS) {
        const hits = await client.answers.retrieve({
          question: q.question,
          maxDocumentClues: 10,
          bm25_score_weight: w[0],
          text_vector_score_weight: w[1],
          title_vector_score_weight: w[2],
        });
        const rank = hits.findIndex((h) => h.title === q.document) + 1;
        if (rank >= 1 && rank <= 3) recall++;
        else misses.push(q.question);
        if (hits.slice(0, 3).some((h) => h.title === q.document && h.pageNo === q.pageNo)) pageRecall++;
        if (rank) mrr += 1 / rank;
      }
      const n = SAMPLE_QUESTIONS.length;
      rows.push([name, recall / n, pageRecall / n, mrr / n, misses.length ? misses.join(' | ') : '-']);
    }
    table(
      `Retrieval quality on the seeded samples: ${SAMPLE_QUESTIONS.length} questions (EN and JA), expected document per question`,
      ['', 'Recall@3 (document)', 'Recall@3 (page)', 'MRR', 'missed (document not in top 3)'],
      rows,
    );
  } finally {
    await svc.stop();
  }
}

async function main(): Promise<void> {
  if (!process.env.KD_BENCH_SKIP_QUALITY) await quality();
  await latency();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
