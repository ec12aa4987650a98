// A pdfkit document's bytes: pdfkit streams its output; the renderers answer one Buffer.

/** Collects what `pdf` writes until it ends; call before pdf.end(). */
export function pdfBuffer(pdf: PDFKit.PDFDocument): Promise<Buffer> {
  const chunks: Buffer[] = []
  return new Promise<Buffer>((resolve, reject) => {
    pdf.on('data', (chunk: Buffer) => chunks.push(chunk))
    pdf.on('end', () => resolve(Buffer.concat(chunks)))
    pdf.on('error', reject)
  })
}
