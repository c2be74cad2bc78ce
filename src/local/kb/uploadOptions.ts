import type { Creator } from './nodeRecord';
import { z } from 'zod';
import { ACCESS_TYPES } from '../../core/kbWire';
import { badRequest } from '../http/errors';

// The optional fields of upload (docs/api.md#upload), shared by multipart upload and the JSON cloud uploads.
const optionFields = {
  hashtags: z.array(z.string().trim().min(1).max(200)).max(100).optional(),
  targetFolderId: z.string().min(1).nullish(),
  isOverwrite: z.boolean().default(false),
  isOverwriteFolderAccess: z.boolean().default(false),
  useLayout: z.boolean().default(true),
  useImageDescription: z.boolean().default(true),
  useOcr: z.boolean().default(false),
  accessPermissionGroups: z
    .array(z.object({ permissionGroupId: z.string().min(1), accessType: z.enum(ACCESS_TYPES) }))
    .max(500)
    .optional(),
  accessAgents: z
    .array(z.object({ agentId: z.string().min(1), accessType: z.enum(ACCESS_TYPES) }))
    .max(500)
    .optional(),
  accessUserFilters: z
    .array(z.object({ variableName: z.enum(['CUSTOMER_ID', 'CUSTOMER_GROUP']), value: z.string().min(1) }))
    .max(500)
    .optional(),
  viewAccessToAgent: z.boolean().default(false),
  viewAccessToUser: z.boolean().default(false),
  properties: z
    .array(z.object({ key: z.string().min(1).max(200), value: z.string().max(2000) }))
    .max(200)
    .optional(),
  notificationHooks: z.array(z.enum(['email_on_ingestion_complete'])).optional(),
};

export const uploadOptionsSchema = z.object({ fileName: z.string(), ...optionFields });
export type UploadOptions = z.infer<typeof uploadOptionsSchema>;

export const cloudStoreBodySchema = z.object({
  fileName: z.string(),
  bucketObjectPath: z.string().min(1),
  cloudAccessKey: z.string().nullish(),
  cloudSecretKey: z.string().nullish(),
  cloudIamRoleArn: z.string().nullish(),
  cloudExternalId: z.string().nullish(),
  ...optionFields,
});

export const blobStorageBodySchema = z.object({
  fileName: z.string(),
  containerBlobPath: z.string().min(1),
  cloudBlobConnectionString: z.string().min(1),
  ...optionFields,
});

type FieldKind = 'string' | 'boolean' | 'stringArray' | 'jsonArray';
const KINDS: Record<string, FieldKind> = {
  fileName: 'string',
  targetFolderId: 'string',
  hashtags: 'stringArray',
  notificationHooks: 'stringArray',
  isOverwrite: 'boolean',
  isOverwriteFolderAccess: 'boolean',
  useLayout: 'boolean',
  useImageDescription: 'boolean',
  useOcr: 'boolean',
  viewAccessToAgent: 'boolean',
  viewAccessToUser: 'boolean',
  resetClueFeedbacks: 'boolean',
  accessPermissionGroups: 'jsonArray',
  accessAgents: 'jsonArray',
  accessUserFilters: 'jsonArray',
  properties: 'jsonArray',
};

/**
 * Multipart fields → a plain object for the schemas above: arrays and objects arrive as one field
 * of JSON text, booleans as true/false (docs/api.md#multipart-encoding); string arrays may also be repeated fields.
 */
export function fieldsToObject(fields: Map<string, string[]>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, values] of fields) {
    const kind = KINDS[name];
    if (!kind) continue; // unknown fields are ignored, as a tolerant server would
    const last = values[values.length - 1];
    if (kind === 'string') out[name] = last;
    else if (kind === 'boolean') {
      if (last !== 'true' && last !== 'false') throw badRequest(`${name}: expected true or false, got "${last.slice(0, 40)}"`, name);
      out[name] = last === 'true';
    } else if (kind === 'stringArray' && !(values.length === 1 && last.trim().startsWith('['))) {
      out[name] = values;
    } else {
      try {
        out[name] = JSON.parse(last);
      } catch {
        throw badRequest(`${name}: expected a JSON array`, name);
      }
    }
  }
  return out;
}

/** A received file, already on disk and hashed. */
export interface IncomingFile {
  tempPath: string;
  sha256: string;
  size: number;
}

export interface Ingest extends IncomingFile {
  options: UploadOptions;
  creator: Creator | null;
  sourceType: string;
  /** Aborted when the client goes away: a long ZIP extraction stops and cleans up. */
  signal?: AbortSignal;
}
