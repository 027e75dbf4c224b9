import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";

/**
 * The text of a PDF as a reader's copy-and-paste gets it, page by page, read offline by PDF.js
 * (pdfjs-dist's Node build, no worker thread, no fonts fetched). Each page's text items are joined
 * with spaces and runs of white space collapsed, so a line the renderer split into pieces still
 * reads as one phrase.
 */
export async function pdfPagesText(pdf: ArrayBuffer | Uint8Array): Promise<string[]> {
  const data = pdf instanceof Uint8Array ? new Uint8Array(pdf) : new Uint8Array(pdf);
  const doc = await getDocument({ data, isEvalSupported: false, useSystemFonts: false, verbosity: 0 })
    .promise;
  try {
    const pages: string[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const content = await (await doc.getPage(n)).getTextContent();
      const text = content.items
        .map((item) => ("str" in item ? `${item.str}${item.hasEOL ? "\n" : ""}` : ""))
        .join("");
      pages.push(text.replace(/[ \t]+/g, " "));
    }
    return pages;
  } finally {
    await doc.destroy();
  }
}
