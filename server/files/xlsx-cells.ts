/**
 * What a spreadsheet cell's XML means, as read-excel-file reads it (the reader scans and bulk award
 * files used before, whose answers the streaming reader in xlsx.ts keeps): types, shared strings,
 * `_xHHHH_` escapes, trimmed strings (a blank one is an empty cell), error cells as empty, and a
 * number whose style's number format is a date as a Date.
 */
export type XlsxCell = string | number | boolean | Date | null;

/** A cell's XML: its `t` and `s` attributes, its `<v>` text, its inline string. */
export interface CellXml {
  t?: string;
  s?: string;
  v?: string;
  inline?: string;
}

/** What reading cells needs of the rest of the workbook. */
export interface CellContext {
  sharedStrings: readonly string[];
  /** Each cellXfs style's number format (undefined: none). */
  styles: readonly ({ id: number; template?: string } | undefined)[];
  epoch1904: boolean;
}

export class CellError extends Error {}

/** `_xHHHH_` escapes (ECMA-376 ST_Xstring) decoded, left to right, not overlapping. */
export const unescapeXlsx = (text: string) => (text.includes('_x') ? text.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))) : text);

/** A string cell's value: trimmed, and a blank one is an empty cell. */
const text = (value: string) => value.trim() || null;

/** A cell's value; throws CellError for a cell that cannot be read (read-excel-file refuses the file then too). */
export function cellValue(cell: CellXml, context: CellContext): XlsxCell {
  const { v } = cell;
  switch (cell.t || 'n') {
    case 'str':
      return v ? text(v) : null;
    case 'inlineStr':
      return cell.inline === undefined ? null : text(cell.inline);
    case 's': {
      if (!v) return null;
      const shared = context.sharedStrings[Number(v)];
      if (shared === undefined) throw new CellError(`no shared string ${v}`);
      return text(shared);
    }
    case 'b':
      if (!v) return null;
      if (v === '1' || v === '0') return v === '1';
      throw new CellError(`a boolean ${v}`);
    case 'e':
      return null;
    case 'd': {
      if (!v) return null;
      const date = new Date(v);
      if (Number.isNaN(date.valueOf())) throw new CellError(`a date ${v}`);
      return new Date(date.getTime());
    }
    case 'n': {
      if (!v) return null;
      if (cell.s) {
        const id = Number(cell.s);
        if (Number.isNaN(id) || !(id in context.styles)) throw new CellError(`no style ${cell.s}`);
        const format = context.styles[id];
        if (format && isDateFormat(format)) {
          const serial = Number(v);
          if (Number.isNaN(serial)) throw new CellError(`a date ${v}`);
          return new Date(excelTimestamp(serial, context.epoch1904));
        }
      }
      const number = Number(v);
      if (Number.isNaN(number)) throw new CellError(`a number ${v}`);
      return number;
    }
    default:
      throw new CellError(`a cell type ${cell.t}`);
  }
}

/** `B12` as [12, 2]. */
export function cellAddress(address: string | undefined): [number, number] {
  if (!address) throw new CellError('a cell without its address');
  let column = 0;
  for (let i = 0; i < address.length; i++) {
    const code = address.charCodeAt(i);
    if (code >= 48 && code <= 57) {
      const row = Number(address.slice(i));
      if (Number.isNaN(row)) break;
      return [row, column];
    }
    column = column * 26 + code - 64;
  }
  throw new CellError(`a cell address ${address}`);
}

/** A spreadsheet's serial day (days since 1900-01-00, with 1900's false leap day) as epoch ms. */
function excelTimestamp(serial: number, epoch1904: boolean): number {
  const day = 24 * 60 * 60 * 1000;
  const days = epoch1904 ? serial + 4 * 365 + 2 : serial;
  return Math.floor((days - (2 + 70 * 365 + 17)) * day);
}

/** The built-in number formats that are dates (locale-independent, Chinese, Japanese, Korean, Thai). */
const BUILT_IN_DATES = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 45, 46, 47, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 50, 51, 52, 53, 54, 55, 56, 57, 58, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81]);
const DATE_TOKENS = new Set(['s', 'ss', 'm', 'mm', 'h', 'hh', 'am', 'pm', 'a', 'p', 'd', 'dd', 'ddd', 'dddd', 'aaa', 'aaaa', 'aaaaa', 'mmm', 'mmmm', 'mmmmm', 'y', 'yy', 'yyyy', 'e', 'ee', 'eeee']);
const dateTemplates = new Map<string, boolean>();

function isDateFormat(format: { id: number; template?: string }): boolean {
  if (BUILT_IN_DATES.has(format.id)) return true;
  if (!format.template) return false;
  let known = dateTemplates.get(format.template);
  if (known === undefined) {
    known = isDateTemplate(format.template);
    if (dateTemplates.size < 1000) dateTemplates.set(format.template, known);
  }
  return known;
}

/** Whether a number format's template (`yyyy-mm-dd`, `[$-409]d/m/yy h:mm;@`) shows only a date or time. */
function isDateTemplate(template: string): boolean {
  const sections = template.toLowerCase().replace(/;@$/, '').replace(/\\./g, ' ').split(';');
  return sections.some((section) => {
    const tokens = section
      .replace(/"[^"]*"/g, ' ')
      .replace(/(\[?[smhd]{1,2}\]?)[.,]00?0?/g, '$1')
      .replace(/\[([smhd]{1,2})\]/g, '$1')
      .replace(/\[[^\]]*\]/g, '')
      .split(/[^a-z0#?%]+/)
      .filter(Boolean);
    return tokens.length > 0 && tokens.every((token) => DATE_TOKENS.has(token));
  });
}
