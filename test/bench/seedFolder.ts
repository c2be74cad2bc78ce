// A big data folder for the start benches (faqUpload.bench.ts, indexSnapshot.bench.ts): documents uploaded as one
// ZIP to the local service (own process) and processed, then Q&As written through the journal as uploads commit
// them (10,000 per commit) and one snapshot at the end — far quicker than registering each one over HTTP.
import { openAsBlob } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { FormData, request, type Dispatcher } from 'undici';
import yazl from 'yazl';
import { newFaqRecord, type FaqFields } from '../../src/local/faq/faqWrites';
import { FAQS } from '../../src/local/store/collections';
import { Journal, type JournalRecord } from '../../src/local/store/journal';
import { startLocalProcess, type LocalProcess } from './localProcess';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The service's counters (/_local/info). */
export async function localInfo(svc: LocalProcess, dispatcher: Dispatcher): Promise<Record<string, number>> {
  const res = await request(`${svc.url}/_local/info`, { headers: { 'API-KEY': svc.apiKey }, dispatcher });
  return ((await res.body.json()) as { counts: Record<string, number> }).counts;
}

export interface SeedSpec {
  documents: number;
  /** Document `i`: its path in the ZIP and its text; called in order, once each. */
  document(i: number): { path: string; text: string };
  qas: number;
  qa(i: number): FaqFields;
}

/** Seeds `dataDir` (`work`: a folder for the ZIP). */
export async function seedDataFolder(dataDir: string, work: string, spec: SeedSpec, dispatcher: Dispatcher): Promise<void> {
  const zip = new yazl.ZipFile();
  for (let i = 0; i < spec.documents; i++) {
    const doc = spec.document(i);
    zip.addBuffer(Buffer.from(doc.text), doc.path, { compress: false });
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const c of zip.outputStream) chunks.push(c as Buffer);
  const zipFile = path.join(work, 'docs.zip');
  await writeFile(zipFile, Buffer.concat(chunks));
  const svc = await startLocalProcess([], { dataDir });
  const form = new FormData();
  form.append('file', await openAsBlob(zipFile), 'docs.zip');
  form.append('fileName', 'docs.zip');
  const res = await request(`${svc.url}/webapi/v2/knowledge_base_nodes/upload`, {
    method: 'POST',
    headers: { 'API-KEY': svc.apiKey },
    body: form,
    dispatcher,
  });
  if (res.statusCode !== 200) throw new Error(`docs upload: ${res.statusCode} ${await res.body.text()}`);
  await res.body.dump();
  while ((await localInfo(svc, dispatcher))['retrieval.documents'] < spec.documents) await sleep(500);
  await svc.stop();
  const journal = await Journal.open({
    dir: path.join(dataDir, 'db'),
    fsync: false,
    compactAfterRecords: Infinity,
    compactAfterBytes: Infinity,
  });
  const now = Date.now();
  for (let from = 0; from < spec.qas; from += 10_000) {
    const records: JournalRecord[] = [];
    for (let i = from; i < Math.min(spec.qas, from + 10_000); i++) {
      const record = newFaqRecord(spec.qa(i), undefined, now, i + 1);
      records.push({ c: FAQS, k: record.id, v: record });
    }
    await journal.commit(records);
  }
  await journal.compact();
  await journal.close();
}
