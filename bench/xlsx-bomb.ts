/**
 * The abuse benchmark's XLSX bomb (attack d): a valid XLSX of about 300 KB whose one
 * sheet inflates to about 300 MB (deflate's best ratio is about 1,000:1). Written twice: `honest.xlsx`, whose zip headers give the sheet's real size, and
 * `lying.xlsx`, whose headers claim 64 KB (an attacker writes whatever gets past a check of the
 * declared sizes). Made by streaming, so this process never holds the 300 MB.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

// One cell whose text is one letter repeated: deflate's best case (a run, 258 bytes a match at
// distance 1), so ~300 MB packs into ~300 KB. (Rows of XML repeat at a distance too long for it.)
const HEAD =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
  '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>' +
  '<row r="1"><c r="A1" t="inlineStr"><is><t>';
const TAIL = '</t></is></c></row></sheetData></worksheet>';

const SMALL: Record<string, string> = {
  '[Content_Types].xml':
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
    '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
    '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>',
  '_rels/.rels':
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
  'xl/workbook.xml':
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" ' +
    'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>',
  'xl/_rels/workbook.xml.rels':
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
};

interface Entry {
  name: string;
  method: 0 | 8;
  crc: number;
  data: Buffer;
  size: number;
}

function zip(entries: Entry[], declaredSize: (entry: Entry) => number): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(entry.method, 8);
    local.writeUInt16LE(0x21, 12); // 1980-01-01
    local.writeUInt32LE(entry.crc, 14);
    local.writeUInt32LE(entry.data.length, 18);
    local.writeUInt32LE(declaredSize(entry), 22);
    local.writeUInt16LE(name.length, 26);
    const dir = Buffer.alloc(46);
    dir.writeUInt32LE(0x02014b50, 0);
    dir.writeUInt16LE(20, 4);
    dir.writeUInt16LE(20, 6);
    dir.writeUInt16LE(entry.method, 10);
    dir.writeUInt16LE(0x21, 14);
    dir.writeUInt32LE(entry.crc, 16);
    dir.writeUInt32LE(entry.data.length, 20);
    dir.writeUInt32LE(declaredSize(entry), 24);
    dir.writeUInt16LE(name.length, 28);
    dir.writeUInt32LE(offset, 42);
    central.push(dir, name);
    parts.push(local, name, entry.data);
    offset += local.length + name.length + entry.data.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, directory, end]);
}

/** Writes honest.xlsx and lying.xlsx into `dir`; the sheet inflates to about `megabytes` MiB. */
export async function writeXlsxBomb(dir: string, megabytes = 300): Promise<{ files: string[]; bytes: number; sheetBytes: number }> {
  const chunk = Buffer.alloc(1024 * 1024, 'A');
  const deflate = zlib.createDeflateRaw({ level: 9, memLevel: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (b: Buffer) => out.push(b));
  const done = new Promise<void>((resolve, reject) => {
    deflate.once('end', resolve);
    deflate.once('error', reject);
  });
  let crc = 0;
  let size = 0;
  const write = async (b: Buffer) => {
    crc = zlib.crc32(b, crc);
    size += b.length;
    if (!deflate.write(b)) await new Promise((r) => deflate.once('drain', r));
  };
  await write(Buffer.from(HEAD));
  for (let i = 0; i < megabytes; i++) await write(chunk);
  await write(Buffer.from(TAIL));
  deflate.end();
  await done;
  const sheet: Entry = { name: 'xl/worksheets/sheet1.xml', method: 8, crc, data: Buffer.concat(out), size };
  const small = Object.entries(SMALL).map(([name, text]): Entry => {
    const data = Buffer.from(text);
    return { name, method: 0, crc: zlib.crc32(data), data, size: data.length };
  });
  const entries = [...small, sheet];
  const honest = zip(entries, (e) => e.size);
  const lying = zip(entries, (e) => (e === sheet ? 64 * 1024 : e.size));
  const files = [path.join(dir, 'honest.xlsx'), path.join(dir, 'lying.xlsx')];
  fs.writeFileSync(files[0], honest);
  fs.writeFileSync(files[1], lying);
  return { files, bytes: honest.length, sheetBytes: size };
}
