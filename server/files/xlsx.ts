import { Parser } from 'saxen';
import { ZipArchive, type InflateLimits } from '../points/unzip';
import { cellAddress, CellError, cellValue, unescapeXlsx, type CellContext, type CellXml, type XlsxCell } from './xlsx-cells';

export type { XlsxCell } from './xlsx-cells';

/**
 * An XLSX workbook read as streams: each part is inflated a zlib chunk at a time (server/points/unzip.ts,
 * every inflated byte counted against the limits) and each chunk's text handed to saxen's streaming
 * XML parser, so a sheet's XML is never whole in memory, only its rows. The shared strings and styles
 * are read first (a cell needs them); a sheet is read only when asked for. The rows are those
 * read-excel-file gives (xlsx-cells.ts): a row a line, from line 1, gaps filled with null, trailing
 * blank rows dropped, every row as wide as the widest.
 * Throws ZipTooLargeError past the limits; any other error means the file cannot be read.
 */
export class XlsxWorkbook {
  private constructor(
    private readonly archive: ZipArchive,
    /** The sheets in the workbook's order: name and the part that holds it. */
    readonly sheets: readonly { name: string; path: string | undefined }[],
    private readonly context: CellContext,
  ) {}

  static async open(bytes: Buffer, limits: InflateLimits, progress?: (inflatedBytes: number) => void): Promise<XlsxWorkbook> {
    const archive = new ZipArchive(bytes, limits, progress);
    const paths = { sheets: new Map<string, string>(), sharedStrings: undefined as string | undefined, styles: undefined as string | undefined };
    const part = (target: string) => (target.startsWith('/') ? target.slice(1) : `xl/${target}`);
    if (archive.has('xl/_rels/workbook.xml.rels')) {
      await parse(archive, 'xl/_rels/workbook.xml.rels', {
        open(name, attributes) {
          if (name !== 'Relationship' || !attributes.Type || !attributes.Target) return;
          const type = /^(?:http:\/\/schemas\.openxmlformats\.org\/officeDocument\/2006\/relationships|http:\/\/purl\.oclc\.org\/ooxml\/officeDocument\/relationships)\/(styles|sharedStrings|worksheet)$/.exec(attributes.Type)?.[1];
          if (type === 'worksheet') paths.sheets.set(attributes.Id, part(attributes.Target));
          else if (type === 'styles' || type === 'sharedStrings') paths[type] = part(attributes.Target);
        },
      });
    }
    const sheets: { name: string; path: string | undefined }[] = [];
    let epoch1904: boolean | undefined;
    await parse(archive, 'xl/workbook.xml', {
      open(name, attributes) {
        if (name === 'workbookPr') epoch1904 ??= attributes.date1904 === '1';
        else if (name === 'sheet' && attributes.name) sheets.push({ name: unescapeXlsx(attributes.name), path: paths.sheets.get(attributes.id) });
      },
    });
    const sharedStrings = paths.sharedStrings && archive.has(paths.sharedStrings) ? await readSharedStrings(archive, paths.sharedStrings) : [];
    const styles = paths.styles && archive.has(paths.styles) ? await readStyles(archive, paths.styles) : [];
    return new XlsxWorkbook(archive, sheets, { sharedStrings, styles, epoch1904: epoch1904 ?? false });
  }

  /** An entry of the archive other than the workbook's own parts (docProps/core.xml), whole, counted like the rest; null when absent. */
  async entry(name: string): Promise<Buffer | null> {
    return this.archive.has(name) ? this.archive.read(name) : null;
  }

  /** A sheet's rows, its XML parsed as it inflates. */
  async rows(sheet: { path: string | undefined }): Promise<XlsxCell[][]> {
    if (!sheet.path || !this.archive.has(sheet.path)) throw new Error('A sheet of the workbook is missing.');
    const rows = new SheetRows(this.context);
    await parse(this.archive, sheet.path, rows);
    return rows.finish();
  }
}

type Handlers = { open?(name: string, attributes: Record<string, string>): void; close?(name: string): void; text?(text: string): void };

/** `prefix:name` without its prefix (`xmlns:…` attributes are kept as they are: no handler reads them). */
const local = (name: string) => {
  const at = name.indexOf(':');
  return at < 0 || name.startsWith('xmlns:') ? name : name.slice(at + 1);
};

/**
 * The most text written to the parser without one event (a tag or a text): saxen keeps an unfinished
 * token and parses it again with each chunk, so one endless text or tag would cost the square of its
 * length. A cell holds at most 32,767 characters (even each written as an 8-character entity, far
 * under this); more is refused as unreadable.
 */
export const MAX_TOKEN_CHARS = 512 * 1024;

/** One part of the archive through saxen, a chunk of inflated text at a time. */
async function parse(archive: ZipArchive, name: string, handlers: Handlers): Promise<void> {
  const parser = new Parser();
  let pending = 0;
  const seen = () => (pending = 0);
  parser.on('error', (error) => {
    throw error;
  });
  for (const token of ['cdata', 'comment', 'question', 'attention'] as const) parser.on(token, seen);
  const { open, close, text } = handlers;
  parser.on('openTag', (tag, attributes, decode) => {
    seen();
    if (!open) return;
    const decoded: Record<string, string> = {};
    for (const [key, value] of Object.entries(attributes())) decoded[local(key)] = decode(value);
    open.call(handlers, local(tag), decoded);
  });
  parser.on('closeTag', (tag) => {
    seen();
    close?.call(handlers, local(tag));
  });
  parser.on('text', (value, decode) => {
    seen();
    text?.call(handlers, decode(value));
  });
  // a chunk may end inside a character: the decoder keeps its first bytes for the next one
  const decoder = new TextDecoder('utf-8');
  let failed: unknown = null;
  for await (const chunk of archive.chunks(name)) {
    // after a part's XML fails, the rest is still inflated (counted, dropped): a part past the limits
    // is refused as too large whatever it holds, as when every part was inflated before any was read
    if (failed) continue;
    try {
      const xml = decoder.decode(chunk, { stream: true });
      pending += xml.length;
      parser.write(xml);
      if (pending > MAX_TOKEN_CHARS) throw new Error(`More than ${MAX_TOKEN_CHARS} characters without a tag.`);
    } catch (error) {
      failed = error;
    }
  }
  if (failed) throw failed;
  parser.write(decoder.decode());
  const error = parser.end();
  if (error) throw error;
}

/** A string item's text (`<si>` or a cell's `<is>`): its `<t>`, or its runs' `<t>`s joined; phonetic runs left out. */
class RichText {
  text = '';
  private t = false;
  private r = false;
  private rPh = false;
  open(name: string) {
    if (name === 't') this.t = true;
    else if (name === 'r') this.r = true;
    else if (name === 'rPh') this.rPh = true;
  }
  close(name: string) {
    if (name === 't') this.t = false;
    else if (name === 'r') this.r = false;
    else if (name === 'rPh') this.rPh = false;
  }
  add(text: string) {
    if (this.rPh || !this.t) return;
    this.text = this.r ? this.text + text : text;
  }
}

async function readSharedStrings(archive: ZipArchive, name: string): Promise<string[]> {
  const strings: string[] = [];
  let item: RichText | null = null;
  await parse(archive, name, {
    open(tag) {
      if (tag === 'si') item = new RichText();
      else item?.open(tag);
    },
    close(tag) {
      if (tag === 'si' && item) {
        strings.push(unescapeXlsx(item.text));
        item = null;
      } else item?.close(tag);
    },
    text(text) {
      item?.add(text);
    },
  });
  return strings;
}

/** Each cellXfs style's number format: its own, else its base style's (cellStyleXfs), with the template of a custom format. */
async function readStyles(archive: ZipArchive, name: string): Promise<CellContext['styles']> {
  const formats = new Map<number, string | undefined>();
  const bases: ({ id: number } | undefined)[] = [];
  const styles: ({ id: number; template?: string } | undefined)[] = [];
  let within: 'cellStyleXfs' | 'cellXfs' | null = null;
  await parse(archive, name, {
    open(tag, attributes) {
      if (tag === 'numFmt') {
        const id = Number(attributes.numFmtId);
        formats.set(id, id >= 100 ? attributes.formatCode : undefined);
      } else if (tag === 'cellStyleXfs' || tag === 'cellXfs') within = tag;
      else if (tag === 'xf' && within) {
        const id = attributes.numFmtId ? Number(attributes.numFmtId) : undefined;
        if (within === 'cellStyleXfs') bases.push(id === undefined ? undefined : { id });
        else if (id !== undefined) styles.push(formats.has(id) ? { id, template: formats.get(id) } : { id });
        else styles.push(Number(attributes.xfId) ? bases[Number(attributes.xfId)] : undefined);
      }
    },
    close(tag) {
      if (tag === within) within = null;
    },
  });
  return styles;
}

/** A sheet's `<sheetData>` to rows, as it is parsed. */
class SheetRows implements Handlers {
  private readonly rows: XlsxCell[][] = [];
  private inData = false;
  private row: XlsxCell[] | null = null;
  private rowNumber = 0;
  private cell: (CellXml & { r?: string; inV: boolean; rich: RichText | null }) | null = null;
  private cursor: [number, number] = [0, 0];
  private rowCount = 0;
  private columnCount = 0;
  private dataRowCount = 0;
  private dataColumnCount = 0;

  constructor(private readonly context: CellContext) {}

  open(name: string, attributes: Record<string, string>) {
    if (name === 'sheetData') this.inData = true;
    if (!this.inData) return;
    if (name === 'row') {
      this.row = [];
      this.rowNumber = attributes.r ? Number(attributes.r) : 0;
    } else if (name === 'c') this.cell = { r: attributes.r, t: attributes.t, s: attributes.s, inV: false, rich: null };
    else if (this.cell) {
      if (name === 'v') this.cell.inV = true;
      else if (name === 'is') this.cell.rich = new RichText();
      else this.cell.rich?.open(name);
    }
  }

  close(name: string) {
    if (!this.inData) return;
    if (name === 'row') this.endRow();
    else if (name === 'c') this.endCell();
    else if (this.cell) {
      if (name === 'v') {
        this.cell.inV = false;
        this.cell.v ||= '';
        if (this.cell.t === 'str') this.cell.v = unescapeXlsx(this.cell.v);
      } else if (name === 'is' && this.cell.rich) {
        this.cell.inline = unescapeXlsx(this.cell.rich.text);
        this.cell.rich = null;
      } else this.cell.rich?.close(name);
    }
  }

  text(text: string) {
    if (!this.cell) return;
    if (this.cell.inV) this.cell.v = text;
    else this.cell.rich?.add(text);
  }

  private endCell() {
    const cell = this.cell!;
    this.cell = null;
    const [row, column] = cellAddress(cell.r);
    if (row < this.cursor[0] || (row === this.cursor[0] && column <= this.cursor[1])) throw new CellError(`a cell out of place at ${cell.r}`);
    this.cursor = [row, column];
    this.rowNumber ||= row;
    const value = cellValue(cell, this.context);
    if (value !== null && this.row) {
      while (this.row.length < column - 1) this.row.push(null);
      this.row.push(value);
      this.dataColumnCount = Math.max(this.dataColumnCount, column);
    }
    this.columnCount = Math.max(this.columnCount, column);
  }

  private endRow() {
    const row = this.row ?? [];
    if (this.rowNumber) {
      if (this.rowNumber <= this.rows.length) throw new CellError(`a row out of place: ${this.rowNumber}`);
      while (this.rowNumber > this.rows.length + 1) this.rows.push([]);
    }
    this.rows.push(row);
    if (row.length > 0) this.dataRowCount = this.rowNumber;
    this.rowCount = Math.max(this.rowCount, this.rowNumber);
    this.row = null;
    this.rowNumber = 0;
  }

  finish(): XlsxCell[][] {
    const rows = this.dataRowCount < this.rowCount ? this.rows.slice(0, this.dataRowCount) : this.rows;
    for (let i = 0; i < rows.length; i++) {
      if (rows[i].length > this.dataColumnCount) rows[i] = rows[i].slice(0, this.dataColumnCount);
      while (rows[i].length < this.dataColumnCount) rows[i].push(null);
    }
    return rows;
  }
}
