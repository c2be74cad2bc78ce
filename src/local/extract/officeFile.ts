// Word and Excel files that are not OOXML zips get a precise reason instead of a zip library's error.
import { readFile } from 'node:fs/promises';
import { ExtractionError } from './types';

const ZIP = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
// Compound File Binary: legacy .doc/.xls, and also the wrapper Office puts around password-protected OOXML.
const CFB = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

export type OfficeFormat = 'DOCX' | 'XLSX';

const APP: Record<OfficeFormat, { app: string; legacy: string }> = {
  DOCX: { app: 'Word', legacy: 'Word 97-2003 document (.doc)' },
  XLSX: { app: 'Excel', legacy: 'Excel 97-2003 workbook (.xls)' },
};

/** Throws an ExtractionError unless the file is a zip (the OOXML container). */
export async function checkOfficeContainer(filePath: string, format: OfficeFormat): Promise<void> {
  const bytes = await readFile(filePath);
  if (bytes.subarray(0, 4).equals(ZIP)) return;
  const { app, legacy } = APP[format];
  if (bytes.length === 0) throw new ExtractionError('empty', `The ${format} file is empty (0 bytes); upload the saved document again.`);
  if (bytes.subarray(0, 8).equals(CFB)) {
    if (bytes.includes(Buffer.from('EncryptedPackage', 'utf16le'))) {
      throw new ExtractionError(
        'encrypted',
        `The ${format} file is password-protected; remove the password in ${app} and upload it again.`,
      );
    }
    throw new ExtractionError(
      'unsupported',
      `The file is an older ${legacy} with a .${format.toLowerCase()} name; open it in ${app}, save it as .${format.toLowerCase()}, and upload it again.`,
    );
  }
  throw new ExtractionError(
    'broken',
    `The file is not a valid ${format} (it is not a ZIP package); open it in ${app}, save it as .${format.toLowerCase()}, and upload it again.`,
  );
}

export function brokenOffice(format: OfficeFormat, error: unknown): ExtractionError {
  const detail = (error instanceof Error ? error.message : String(error)).split('\n')[0]?.slice(0, 200);
  const { app } = APP[format];
  return new ExtractionError(
    'broken',
    `The file is not a valid ${format} (${detail}); open it in ${app}, save it as .${format.toLowerCase()}, and upload it again.`,
  );
}
