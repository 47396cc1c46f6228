import { useEffect, useRef, useState } from 'react';
import { useIntl } from 'react-intl';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { axisNumbers, exactNumber } from '../../lib/stats-format';
import { seriesColorNow } from './series-colors';

export interface ChartSeries {
  label: string;
  values: (number | null)[];
}

/** The theme's colours, read from the CSS variables (light and dark differ). */
function themeColors() {
  const css = getComputedStyle(document.documentElement);
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  return { primary: v('--primary', '#2563eb'), text: v('--muted-foreground', '#5b6275'), grid: v('--border', '#dde1ea'), warning: v('--warning', '#d97706'), success: v('--success', '#16a34a') };
}

/** Re-renders when the theme class on <html> changes, so the chart follows light and dark. */
function useThemeKey(): string {
  const [key, setKey] = useState(() => document.documentElement.className);
  useEffect(() => {
    const observer = new MutationObserver(() => setKey(document.documentElement.className));
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['class', 'data-color'] });
    return () => observer.disconnect();
  }, []);
  return key;
}

/**
 * A uPlot line chart over scans: x is the scan time (seconds), one line per series; hovering shows
 * every value (exact, with the locale's separators) in the legend. Loaded with its page only.
 */
export default function Chart({ xs, series, height = 240, label, wholeNumbers = false }: { xs: number[]; series: ChartSeries[]; height?: number; label: string; wholeNumbers?: boolean }) {
  const box = useRef<HTMLDivElement>(null);
  const intl = useIntl();
  const { locale } = intl;
  const theme = useThemeKey();

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const colors = themeColors();
    const css = getComputedStyle(document.documentElement);
    const dateFormat = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', year: '2-digit' });
    const hoverDate = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
    const axis = { stroke: colors.text, grid: { stroke: colors.grid, width: 1 }, ticks: { stroke: colors.grid, width: 1 } };
    const opts: uPlot.Options = {
      width: Math.max(200, el.clientWidth),
      height,
      scales: { x: { time: true } },
      // room for the last date's label, centred on the newest scan
      padding: [12, 40, 0, 8],
      cursor: { points: { size: 8 } },
      legend: { live: true },
      series: [
        { label: intl.formatMessage({ id: 'scans.col.date' }), value: (_u, v) => (v === null || v === undefined ? '—' : hoverDate.format(v * 1000)) },
        ...series.map((s, i) => ({
          label: s.label,
          stroke: seriesColorNow(i, css),
          width: 2,
          points: { show: xs.length < 60, size: 5 },
          spanGaps: true,
          value: (_u: uPlot, v: number | null) => (v === null || v === undefined ? '—' : exactNumber(v, locale)),
        })),
      ],
      axes: [
        // few scans (as many as fit): a tick on each; many: uPlot spaces them out, wide enough for a date
        { ...axis, space: 110, ...(xs.length <= Math.min(6, Math.floor(el.clientWidth / 110)) ? { splits: () => xs } : {}), values: (_u, splits) => splits.map((s) => dateFormat.format(s * 1000)) },
        {
          ...axis,
          // wide enough for the longest label (compact numbers are long in some languages)
          size: (_u, values) => Math.max(40, ...(values ?? []).map((v) => String(v).length * 7.5 + 16)),
          // compact, with as many decimals as keep the ticks' labels apart
          values: (_u, splits) => axisNumbers(splits, locale),
          // counts (governors): ticks on whole numbers only
          ...(wholeNumbers ? { incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000] } : {}),
        },
      ],
    };
    const plot = new uPlot(opts, [xs, ...series.map((s) => s.values)] as uPlot.AlignedData, el);
    const observer = new ResizeObserver(() => plot.setSize({ width: Math.max(200, el.clientWidth), height }));
    observer.observe(el);
    return () => {
      observer.disconnect();
      plot.destroy();
    };
  }, [xs, series, height, locale, intl, theme, wholeNumbers]);

  return <div ref={box} role="img" aria-label={label} dir="ltr" className="kingdom-chart w-full min-w-0" />;
}
