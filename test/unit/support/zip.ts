// A ZIP of named entries, in memory, for the tests that upload folders or Q&A files as ZIPs.
import yazl from 'yazl';

export async function zipOf(entries: Record<string, Uint8Array | string>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, content] of Object.entries(entries)) zip.addBuffer(Buffer.from(content), name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
