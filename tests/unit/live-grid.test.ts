import { describe, expect, it } from 'vitest';
import { columnsFor } from '../../src/ui/pages/my-account/kingdom-store/live-grid';

describe('live grid columns (a single live card took half the column)', () => {
  it('a single card takes the whole width, however wide', () => {
    expect(columnsFor(640, 1)).toBe(1);
    expect(columnsFor(1600, 1)).toBe(1);
  });
  it('as many columns as fit, never more than there are cards', () => {
    expect(columnsFor(640, 2)).toBe(2);
    expect(columnsFor(640, 5)).toBe(2);
    expect(columnsFor(1600, 3)).toBe(3);
    expect(columnsFor(1600, 30)).toBe(5);
  });
  it('one column on a phone, and before the grid is measured', () => {
    expect(columnsFor(343, 4)).toBe(1);
    expect(columnsFor(0, 4)).toBe(1);
    expect(columnsFor(0, 0)).toBe(1);
  });
});
