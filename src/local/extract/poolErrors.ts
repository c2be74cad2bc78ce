// Why the extractor pool stopped a document: shown in the knowledge-base tree, so specific and actionable.
import { ExtractionError } from './types';

export function crashError(fileName: string, ready: boolean, error: Error, maxHeapMb: number): ExtractionError {
  if ((error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY') return memoryError(fileName, maxHeapMb);
  if (!ready) {
    return new ExtractionError(
      'broken',
      `The text extraction worker could not start (${error.message}); "${fileName}" was not read. Reinstall or update the extension.`,
    );
  }
  return new ExtractionError(
    'broken',
    `Text extraction crashed on "${fileName}" (${error.message}); the file may be damaged. Save it again and upload the new file.`,
  );
}

export function memoryError(fileName: string, limitMb: number): ExtractionError {
  return new ExtractionError(
    'tooLarge',
    `"${fileName}" needs more memory than text extraction may use (${limitMb} MB); split it into smaller files and upload them separately.`,
  );
}

export function timeoutError(fileName: string, budgetMs: number): ExtractionError {
  const seconds = Number((budgetMs / 1000).toFixed(1));
  return new ExtractionError(
    'timeout',
    `Text extraction of "${fileName}" took longer than ${seconds} seconds and was stopped; the document may be too large or complex. Split it into smaller files and upload them again.`,
  );
}
