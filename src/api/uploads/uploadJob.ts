// One file (or a folder zipped by the extension) to upload: made by planUploads, run by uploadRunner, reconciled by reconcile.

export interface UploadJob {
  /** Stable key, e.g. the workspace-relative path. */
  id: string;
  /** File on disk (for a folder: the ZIP made of it). */
  path: string;
  fileName: string;
  size: number;
  targetFolderId?: string;
  /** A ZIP made by the extension from a folder (never resent blindly: it would create a second folder). */
  isZip?: boolean;
  /** A problem found before sending (empty, unreadable, too large): the job fails with it at once. */
  problem?: string;
  /** Sync with `compare`: the document of the same name already in the target folder. */
  existing?: { id: string; size: number };
  /** Set by the runner on the first attempt; a later retry reconciles against it. */
  firstAttemptAt?: number;
}
