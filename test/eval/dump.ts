// Writes the extracted pages of the dev-set documents to a folder (one file per page), for checking an
// expected answer page by hand: node --import tsx test/eval/dump.ts /tmp/eval-pages
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { closeCorpus, DEBIAN_DOCUMENTS, loadCorpus } from './corpus';

async function main(): Promise<void> {
  const out = process.argv[2] ?? 'eval-pages';
  const corpus = await loadCorpus(DEBIAN_DOCUMENTS);
  try {
    for (const [name, pages] of corpus.pages) {
      const dir = path.join(out, name);
      await mkdir(dir, { recursive: true });
      for (const p of pages) await writeFile(path.join(dir, `${String(p.pageNo).padStart(3, '0')}.txt`), p.text);
      console.log(`${name}: ${pages.length} pages`);
    }
  } finally {
    await closeCorpus(corpus);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
