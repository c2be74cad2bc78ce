// The documents of the retrieval dev set and how they get into a fresh local service: uploaded through the
// API client (real upload, real extraction and indexing in the service's own process), then read back page by
// page (GET …/text), which is what both the local service and the plain BM25 baseline search.
import { readFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { Agent } from 'undici';
import { ApiClient } from '../../src/api/client';
import type { PageText } from '../../src/api/schemas/kbOps';
import { startLocalProcess, type LocalProcess } from '../bench/localProcess';

export interface EvalDocument {
  /** The name it is uploaded as: questions name their answer document by it. */
  name: string;
  lang: 'en' | 'ja';
  /** Where the Debian package puts it (install.sh); .gz files are unpacked before upload. */
  path: string;
}

// PDF editions where the packages ship a real one: the service's own PDF extraction is what is measured.
// debian-faq-ja's PDF is an empty 10 KB stub, so its plain-text edition stands in (paged by size).
export const DEBIAN_DOCUMENTS: EvalDocument[] = [
  { name: 'debian-faq.en.pdf', lang: 'en', path: '/usr/share/doc/debian/FAQ/debian-faq.en.pdf.gz' },
  { name: 'debian-faq.ja.txt', lang: 'ja', path: '/usr/share/doc/debian/FAQ/debian-faq.ja.txt.gz' },
  { name: 'developers-reference.en.pdf', lang: 'en', path: '/usr/share/developers-reference/developers-reference.pdf' },
  { name: 'developers-reference.ja.pdf', lang: 'ja', path: '/usr/share/developers-reference/ja/developers-reference.pdf' },
];

export interface LoadedCorpus {
  svc: LocalProcess;
  client: ApiClient;
  /** Page texts per document name, as the service extracted them. */
  pages: Map<string, PageText[]>;
  uploadMs: number;
}

export async function readDocument(doc: EvalDocument): Promise<Buffer> {
  const bytes = await readFile(doc.path);
  return doc.path.endsWith('.gz') ? gunzipSync(bytes) : bytes;
}

/** Starts a fresh local service (dist/local.js, or another build's `script`), uploads every document and waits until each is processed. */
export async function loadCorpus(docs: EvalDocument[], script?: string): Promise<LoadedCorpus> {
  const svc = await startLocalProcess([], { script });
  const client = new ApiClient({
    baseUrl: svc.url,
    apiKey: svc.apiKey,
    dispatcher: new Agent({ keepAliveTimeout: 30_000 }),
    timeoutMs: 600_000,
  });
  try {
    const started = performance.now();
    const ids = new Map<string, string>();
    // One document at a time: processed side by side, a large PDF on a busy machine can hit the extraction time limit.
    for (const doc of docs) {
      const [node] = await client.kbNodes.upload({ file: { data: await readDocument(doc) }, fileName: doc.name });
      ids.set(doc.name, node.id);
      for (;;) {
        const state = String((await client.kbNodes.get(node.id)).processState);
        if (state === 'completed') break;
        if (/fail|error/i.test(state)) throw new Error(`${doc.name}: processing ${state}`);
        if (performance.now() - started > 10 * 60_000) throw new Error(`${doc.name}: not processed after 10 minutes`);
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    const uploadMs = performance.now() - started;
    const pages = new Map<string, PageText[]>();
    for (const [name, id] of ids) pages.set(name, await client.kbNodes.text(id));
    return { svc, client, pages, uploadMs };
  } catch (e) {
    await client.config.dispatcher?.close();
    await svc.stop();
    throw e;
  }
}

export async function closeCorpus(corpus: LoadedCorpus): Promise<void> {
  await corpus.client.config.dispatcher?.close();
  await corpus.svc.stop();
}
