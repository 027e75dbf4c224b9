/**
 * A strict RFC 4180 reader for the tests: rows of fields with quotes undone. It refuses a document
 * whose last row is not ended by CRLF and a bare LF or CR outside quotes, so a test that reads a
 * file with it has also checked the encoding.
 */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') {
      if (field !== "") throw new Error(`a quote inside an unquoted field at ${i}`);
      quoted = true;
    } else if (ch === ",") {
      row.push(field);
      field = "";
    } else if (ch === "\r" && text[i + 1] === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      i++;
    } else if (ch === "\r" || ch === "\n") {
      throw new Error(`a line break that is not CRLF outside quotes at ${i}`);
    } else field += ch;
  }
  if (quoted) throw new Error("an unclosed quote");
  if (field !== "" || row.length) throw new Error("the document does not end with CRLF");
  return rows;
}

/** Rows as objects keyed by the header row's names. */
export function csvRecords(text: string): { header: string[]; records: Array<Record<string, string>> } {
  const [header = [], ...rows] = parseCsv(text);
  return {
    header,
    records: rows.map((r) => {
      if (r.length !== header.length)
        throw new Error(`a row of ${r.length} fields under ${header.length} names`);
      return Object.fromEntries(header.map((name, i) => [name, r[i] ?? ""]));
    }),
  };
}
