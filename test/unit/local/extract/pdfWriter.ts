// Writes simple multi-page PDFs (Helvetica, not embedded) for tests that need a big or exact PDF.

export interface PdfPageSpec {
  /** lines from the top; each is drawn at 10 pt with 14 pt leading */
  lines: string[];
}

export function makePdf(pages: PdfPageSpec[]): Buffer {
  const objects: string[] = [];
  const add = (body: string): number => objects.push(body);
  add('<< /Type /Catalog /Pages 2 0 R >>');
  add(''); // pages, filled in below
  add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const kids: number[] = [];
  for (const page of pages) {
    const content = `BT /F1 10 Tf 14 TL 56 790 Td\n${page.lines.map((l) => `(${escapePdf(l)}) Tj T*`).join('\n')}\nET`;
    const contentRef = add(`<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`);
    kids.push(
      add(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents ${contentRef} 0 R >>`),
    );
  }
  objects[1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`;
  let pdf = '%PDF-1.4\n';
  const offsets = objects.map((body, i) => {
    const at = Buffer.byteLength(pdf, 'latin1');
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
    return at;
  });
  const xref = Buffer.byteLength(pdf, 'latin1');
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

function escapePdf(text: string): string {
  return text.replace(/[\\()]/g, (c) => `\\${c}`);
}

/** `count` pages of `linesPerPage` lines, each line naming its page and line number. */
export function makeBigPdf(count: number, linesPerPage = 50): Buffer {
  return makePdf(
    Array.from({ length: count }, (_, p) => ({
      lines: Array.from(
        { length: linesPerPage },
        (_, l) => `Page ${p + 1} line ${l + 1}: the quarterly report lists revenue, costs and staffing for each region.`,
      ),
    })),
  );
}
