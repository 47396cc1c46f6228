import { describe, expect, it } from 'vitest';
import { csvBlob } from '../../src/ui/pages/my-kingdom/migrants-csv';

describe('the migrant lists’ CSV (made in the browser)', () => {
  it('starts with a BOM, quotes what needs quoting and defuses formulas', async () => {
    const blob = csvBlob(['governor id', 'name', 'power', 'reason'], [
      [1, 'Plain', 100, 'unknown'],
      [2, 'Comma, "quoted"', null, 'below-cutoff'],
      [3, '=HYPERLINK("x")', 5, '-1'],
      [4, 'جمال\nالدين', 7, '@home'],
    ]);
    const bytes = new Uint8Array(await blob.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes.slice(3));
    expect(text.split('\r\n')).toEqual([
      'governor id,name,power,reason',
      '1,Plain,100,unknown',
      '2,"Comma, ""quoted""",,below-cutoff',
      `3,"'=HYPERLINK(""x"")",5,'-1`,
      '4,"جمال\nالدين",7,\'@home',
      '',
    ]);
  });
});
