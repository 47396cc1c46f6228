/** A chart's line colours in order (a theme variable, with its fallback, or a fixed colour): the chart and the page's legend use the same. */
export const SERIES_COLORS: readonly { variable: string | null; fallback: string }[] = [
  { variable: '--primary', fallback: '#2563eb' },
  { variable: '--warning', fallback: '#d97706' },
  { variable: '--success', fallback: '#16a34a' },
  { variable: null, fallback: '#db2777' },
  { variable: null, fallback: '#0891b2' },
];

/** The i-th line's colour as CSS (a swatch beside its name). */
export function seriesColorCss(i: number): string {
  const c = SERIES_COLORS[i % SERIES_COLORS.length];
  return c.variable ? `var(${c.variable}, ${c.fallback})` : c.fallback;
}

/** The i-th line's colour as the canvas needs it (the theme's variable read now). */
export function seriesColorNow(i: number, css: CSSStyleDeclaration): string {
  const c = SERIES_COLORS[i % SERIES_COLORS.length];
  return (c.variable && css.getPropertyValue(c.variable).trim()) || c.fallback;
}
