// Downloads an answer's PDF preview in the extension host (never in the webview): https only, no
// API key or identity headers (the link is its own credential), redirects followed only to https,
// a size cap and a timeout. Uses the client's dispatcher, so the proxy settings apply.
// Its errors end up in the citation viewer's note (in parentheses): texts through @vscode/l10n.
import * as l10n from '@vscode/l10n';
import type { Dispatcher } from 'undici';
import { undici } from '../../../api/undici';
import { MAX_PDF_BYTES } from './protocol';

export class PreviewDownloadError extends Error {
  override readonly name = 'PreviewDownloadError';
}

export interface DownloadOptions {
  dispatcher?: Dispatcher;
  maxBytes?: number;
  timeoutMs?: number;
  maxRedirects?: number;
  signal?: AbortSignal;
}

export async function downloadPreview(url: string, options: DownloadOptions = {}): Promise<Uint8Array> {
  const maxBytes = options.maxBytes ?? MAX_PDF_BYTES;
  const timeout = AbortSignal.timeout(options.timeoutMs ?? 60_000);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  let current = url;
  for (let hop = 0; ; hop++) {
    const parsed = new URL(current);
    if (parsed.protocol !== 'https:') throw new PreviewDownloadError(l10n.t('only https links are fetched (got {0})', parsed.protocol));
    const res = await undici()
      .request(parsed, {
        method: 'GET',
        headers: { accept: 'application/pdf, */*' },
        dispatcher: options.dispatcher,
        signal,
      })
      .catch((error: unknown) => {
        throw new PreviewDownloadError(
          timeout.aborted
            ? l10n.t('timed out')
            : l10n.t('cannot reach {0} ({1})', parsed.host, (error as { code?: string })?.code ?? String(error)),
        );
      });
    if (res.statusCode >= 300 && res.statusCode < 400 && res.headers.location) {
      await res.body.dump();
      if (hop >= (options.maxRedirects ?? 3)) throw new PreviewDownloadError(l10n.t('too many redirects'));
      current = new URL(String(res.headers.location), parsed).toString();
      continue;
    }
    if (res.statusCode < 200 || res.statusCode >= 300) {
      await res.body.dump();
      throw new PreviewDownloadError(`HTTP ${res.statusCode}`);
    }
    const declared = Number(res.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes) {
      await res.body.dump();
      throw new PreviewDownloadError(l10n.t('the preview is larger than {0} MB', Math.round(maxBytes / 1048576)));
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      size += (chunk as Uint8Array).byteLength;
      if (size > maxBytes) {
        res.body.destroy();
        throw new PreviewDownloadError(l10n.t('the preview is larger than {0} MB', Math.round(maxBytes / 1048576)));
      }
      chunks.push(chunk as Uint8Array);
    }
    const out = new Uint8Array(size);
    let at = 0;
    for (const c of chunks) {
      out.set(c, at);
      at += c.byteLength;
    }
    return out;
  }
}
