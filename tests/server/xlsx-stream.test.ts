import readXlsxFile from 'read-excel-file/node';
import writeXlsxFile from 'write-excel-file/node';
import yazl from 'yazl';
import { describe, expect, it } from 'vitest';
import { MAX_TOKEN_CHARS, XlsxWorkbook } from '../../server/files/xlsx';
import { ZipTooLargeError } from '../../server/points/unzip';

/**
 * The streaming reader (server/files/xlsx.ts) against read-excel-file, the reader it replaced:
 * every workbook here must give the same sheets and the same rows, cell for cell.
 */
const LIMITS = { maxTotalBytes: 64 * 1024 * 1024, maxEntries: 1000 };

async function both(bytes: Buffer) {
  const expected = (await readXlsxFile(bytes)) as unknown as { sheet: string; data: unknown[][] }[];
  const workbook = await XlsxWorkbook.open(bytes, LIMITS);
  const actual: { sheet: string; data: unknown[][] }[] = [];
  for (const sheet of workbook.sheets) actual.push({ sheet: sheet.name, data: await workbook.rows(sheet) });
  return { expected, actual };
}

/** A deflated zip of `parts` (deflated, so a large part reaches the reader in many chunks). */
function zip(parts: Record<string, string>): Promise<Buffer> {
  const file = new yazl.ZipFile();
  for (const [name, text] of Object.entries(parts)) file.addBuffer(Buffer.from(text), name, { compress: true });
  file.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    file.outputStream.on('data', (c: Buffer) => chunks.push(c));
    file.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    file.outputStream.on('error', reject);
  });
}

const NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** A workbook written by hand: `sheets` are each sheet's `<sheetData>` content. */
function handMade(sheets: Record<string, string>, sharedStrings: string[], options: { styles?: string; date1904?: boolean } = {}): Promise<Buffer> {
  const names = Object.keys(sheets);
  const parts: Record<string, string> = {
    '[Content_Types].xml': '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/></Types>',
    'xl/workbook.xml': `<?xml version="1.0" encoding="UTF-8"?><workbook ${NS}>${options.date1904 ? '<workbookPr date1904="1"/>' : ''}<sheets>${names.map((n, i) => `<sheet name="${n}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('')}</sheets></workbook>`,
    'xl/_rels/workbook.xml.rels': `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${names
      .map((_, i) => `<Relationship Id="rId${i + 1}" Type="${REL}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`)
      .join('')}<Relationship Id="rS" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/><Relationship Id="rT" Type="${REL}/styles" Target="/xl/styles.xml"/></Relationships>`,
    'xl/sharedStrings.xml': `<?xml version="1.0" encoding="UTF-8"?><sst ${NS} count="${sharedStrings.length}">${sharedStrings.join('')}</sst>`,
    'xl/styles.xml': `<?xml version="1.0" encoding="UTF-8"?><styleSheet ${NS}>${options.styles ?? '<cellXfs count="1"><xf numFmtId="0"/></cellXfs>'}</styleSheet>`,
  };
  names.forEach((name, i) => (parts[`xl/worksheets/sheet${i + 1}.xml`] = `<?xml version="1.0" encoding="UTF-8"?><worksheet ${NS}><dimension ref="A1:Z99"/><sheetData>${sheets[name]}</sheetData></worksheet>`));
  return zip(parts);
}

describe('the streaming XLSX reader reads what read-excel-file reads', () => {
  it('workbooks as the tests write them: several sheets, texts, numbers, booleans, dates, gaps, numbers stored as text, long texts', async () => {
    const long = 'Ω long shared text & <more> '.repeat(8_000);
    const bytes = await writeXlsxFile([
      { sheet: 'Summary', data: [[{ value: 'Kingdom 3328' }], [{ value: 'Total power' }, { value: 1 }]] },
      {
        sheet: '2025-11-02',
        data: [
          [{ value: 'ID' }, { value: 'Name' }, { value: 'Power' }, null, { value: 'Active' }, { value: 'Seen' }],
          [{ value: 12345678 }, { value: '  Spaced  ' }, { value: 1.5e9 }, null, { value: true }, { value: new Date(Date.UTC(2025, 10, 2, 13, 30)), format: 'dd/mm/yyyy hh:mm' }],
          [{ value: '00123' }, { value: long }, { value: -0.25 }, { value: '' }, { value: false }, { value: new Date(Date.UTC(2024, 1, 29)), format: 'yyyy-mm-dd' }],
          [null, null, null],
          [{ value: 'عربي 😀 "quoted" \'single\'' }, { value: 'tab\there' }, { value: 0 }],
        ],
      },
      { sheet: 'Empty', data: [[null]] },
    ] as never).toBuffer();
    const { expected, actual } = await both(bytes);
    expect(actual).toEqual(expected);
    expect(actual[1].data[2][1]).toBe(long.trim());
  });

  it('a sheet of thousands of rows that inflates in many chunks', async () => {
    const rows: { value: string | number }[][] = [['ID', 'Name', 'Alliance', 'Power'].map((value) => ({ value }))];
    for (let g = 0; g < 4_000; g++) rows.push([{ value: 10_000_000 + g }, { value: `Governor ${g} ${'x'.repeat(g % 50)}` }, { value: `A${g % 40}` }, { value: g * 7919.5 }]);
    const { expected, actual } = await both(await writeXlsxFile(rows as never).toBuffer());
    expect(actual[0].data).toHaveLength(4_001);
    expect(actual).toEqual(expected);
  });

  it('the odd cases: inline and rich strings, sparse rows, style-only cells, formulas, errors, escapes, entities, built-in and custom date formats', async () => {
    const huge = 'y'.repeat(300_000);
    const shared = ['<si><t>plain</t></si>', '<si><r><t>rich </t></r><r><rPr><b/></rPr><t xml:space="preserve">text </t></r><rPh><t>ignored</t></rPh></si>', `<si><t>${huge}</t></si>`, '<si><t>  </t></si>', '<si><t>line_x000D_break &amp; caf&#233;</t></si>', '<si><t>00042</t></si>'];
    const styles =
      '<numFmts count="2"><numFmt numFmtId="164" formatCode="dd/mm/yyyy\\ hh:mm"/><numFmt numFmtId="165" formatCode="#,##0.00&quot;kp&quot;"/></numFmts>' +
      '<cellStyleXfs count="2"><xf numFmtId="0"/><xf numFmtId="14"/></cellStyleXfs>' +
      '<cellXfs count="6"><xf numFmtId="0" xfId="0"/><xf numFmtId="14"/><xf numFmtId="164"/><xf numFmtId="165"/><xf xfId="1"/><xf/></cellXfs>';
    const sheet = [
      '<row r="2"><c r="A2" t="s"><v>0</v></c><c r="B2" t="s"><v>1</v></c><c r="C2" s="1"/><c r="E2" t="inlineStr"><is><t> inline </t></is></c></row>',
      '<row r="5" spans="1:8"><c r="C5"><v>42</v></c><c r="F5" t="s"><v>2</v></c><c r="H5" t="inlineStr"><is><r><t>in</t></r><r><t>line</t></r></is></c></row>',
      '<row r="6"><c r="A6" t="str"><f>A2&amp;"x"</f><v>plainx</v></c><c r="B6"><f>1+1</f><v>2</v></c><c r="C6" t="e"><f>1/0</f><v>#DIV/0!</v></c><c r="D6" t="b"><v>1</v></c><c r="E6" t="s"><v>3</v></c><c r="F6" t="s"><v>4</v></c></row>',
      '<row r="7"><c r="A7" s="1"><v>45963</v></c><c r="B7" s="2"><v>45963.5625</v></c><c r="C7" s="3"><v>1234.5</v></c><c r="D7" s="4"><v>45000</v></c><c r="E7" s="5"><v>7</v></c><c r="F7" t="s"><v>5</v></c><c r="G7" t="str"><v>_x0041_&lt;tag&gt;</v></c></row>',
      '<row r="8"><c r="A8" t="d"><v>2025-11-02T10:00:00Z</v></c><c r="B8" t="str"><v></v></c><c r="C8" t="n"><v>1e3</v></c></row>',
      '<row r="9"><c r="A9" s="1"/><c r="J9" s="2"/></row>',
      '<row r="12" customHeight="1"/>',
    ].join('');
    const second = '<row><c r="A1" t="inlineStr"><is><t>ID</t></is></c><c r="B1"><v>5</v></c></row><row><c r="B2"><v>6</v></c></row>';
    for (const date1904 of [false, true]) {
      const { expected, actual } = await both(await handMade({ 'Odd cases': sheet, 'No row numbers': second }, shared, { styles, date1904 }));
      expect(actual).toEqual(expected);
      expect(actual[0].data[4][5]).toBe(huge);
    }
  });

  it('refuses, as the old reader did, a cell out of place and a shared string that is not there', async () => {
    for (const sheet of ['<row r="2"><c r="B2"><v>1</v></c><c r="A2"><v>2</v></c></row>', '<row r="3"><c r="A3"><v>1</v></c></row><row r="2"><c r="A2"><v>1</v></c></row>', '<row><c r="A1" t="s"><v>9</v></c></row>']) {
      const bytes = await handMade({ Sheet1: sheet }, ['<si><t>one</t></si>']);
      await expect(readXlsxFile(bytes)).rejects.toThrow();
      const workbook = await XlsxWorkbook.open(bytes, LIMITS);
      await expect(workbook.rows(workbook.sheets[0])).rejects.toThrow();
    }
  });

  it('stops inflating a sheet past the limit, having held no more than a chunk of its text', async () => {
    const rows = '<row><c t="inlineStr"><is><t>1</t></is></c></row>'.repeat(60_000);
    const bytes = await handMade({ Sheet1: rows }, []);
    let inflated = 0;
    const workbook = await XlsxWorkbook.open(bytes, { maxTotalBytes: 1024 * 1024, maxEntries: 10 }, (n) => (inflated = n));
    await expect(workbook.rows(workbook.sheets[0])).rejects.toBeInstanceOf(ZipTooLargeError);
    expect(inflated).toBeLessThanOrEqual(1024 * 1024 + 64 * 1024);
  });

  it('refuses a text or a tag longer than any cell holds, in time that grows with its length, not its square', async () => {
    for (const sheet of [`<row><c r="A1" t="inlineStr"><is><t>${'z'.repeat(16 * MAX_TOKEN_CHARS)}</t></is></c></row>`, `<row><c r="A1" t="inlineStr" x="${'z'.repeat(16 * MAX_TOKEN_CHARS)}"/></row>`]) {
      const workbook = await XlsxWorkbook.open(await handMade({ Sheet1: sheet }, []), LIMITS);
      const started = performance.now();
      await expect(workbook.rows(workbook.sheets[0])).rejects.toThrow(/characters without a tag/);
      // reparsing the unfinished token with each chunk would take minutes here
      expect(performance.now() - started).toBeLessThan(5_000);
    }
  });
});
