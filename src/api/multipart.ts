import { openAsBlob } from 'node:fs';
import { FormData } from 'undici';

/** A file part, streamed from disk when the request is sent (never read whole into memory). */
export interface FilePart {
  kind: 'file';
  path: string;
  fileName: string;
  contentType?: string;
}

/** An in-memory part, for small generated content (tests, CSV built by the extension). */
export interface BufferPart {
  kind: 'buffer';
  data: Uint8Array | string;
  fileName: string;
  contentType?: string;
}

export type MultipartValue = string | number | boolean | FilePart | BufferPart | readonly unknown[] | Record<string, unknown>;
export type MultipartFields = Record<string, MultipartValue | null | undefined>;

function isPart(value: unknown): value is FilePart | BufferPart {
  return typeof value === 'object' && value !== null && 'kind' in value && (value.kind === 'file' || value.kind === 'buffer');
}

/**
 * Builds the form for one attempt. Array and object fields go as one field holding JSON text,
 * booleans as `true` / `false` (docs/api.md#multipart-encoding). Called again for each retry,
 * because a streamed file body can be consumed only once.
 */
export async function buildForm(fields: MultipartFields): Promise<FormData> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined || value === null) continue;
    if (isPart(value)) {
      const type = value.contentType ?? 'application/octet-stream';
      const blob = value.kind === 'file' ? await openAsBlob(value.path, { type }) : new Blob([value.data], { type });
      form.append(name, blob, value.fileName);
    } else if (typeof value === 'object') {
      form.append(name, JSON.stringify(value));
    } else {
      form.append(name, String(value));
    }
  }
  return form;
}
