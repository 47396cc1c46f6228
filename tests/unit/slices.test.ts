import { describe, expect, it } from 'vitest';
import { mapInSlices, stringifyInSlices } from '../../server/slices';

describe('long lists a slice at a time', () => {
  it("writes JSON.stringify's text byte for byte, long lists included", async () => {
    const long = Array.from({ length: 2_345 }, (_, i) => ({ row: i, text: `t"${i}\u2028`, skipped: undefined, nested: i % 7 === 0 ? [1, undefined, 'x'] : null }));
    const data = { result: true, preview: { at: new Date(0), long, empty: [], exactly: Array.from({ length: 1000 }, (_, i) => i), gone: undefined, f: () => 1, items: [undefined, long.slice(0, 3)] }, last: 'é' };
    expect(await stringifyInSlices(data)).toBe(JSON.stringify(data));
    for (const plain of [null, 1, 'a', [], {}, [undefined], Array.from({ length: 1001 }, () => undefined)]) expect(await stringifyInSlices(plain)).toBe(JSON.stringify(plain));
  });

  it('lets the event loop turn while a long list is written', async () => {
    let turns = 0;
    let beating = true;
    const beat = () => {
      turns += 1;
      if (beating) setImmediate(beat);
    };
    setImmediate(beat);
    await stringifyInSlices({ rows: Array.from({ length: 10_000 }, (_, i) => [i, `governor ${i}`]) });
    beating = false;
    expect(turns).toBeGreaterThanOrEqual(9);
  });

  it('maps a long list in order, letting the event loop turn between slices', async () => {
    let turns = 0;
    let beating = true;
    const beat = () => {
      turns += 1;
      if (beating) setImmediate(beat);
    };
    setImmediate(beat);
    const list = Array.from({ length: 5_500 }, (_, i) => i);
    expect(await mapInSlices(list, (n) => n * 2)).toEqual(list.map((n) => n * 2));
    beating = false;
    expect(turns).toBeGreaterThanOrEqual(5);
    expect(await mapInSlices([], (n: number) => n)).toEqual([]);
  });
});
