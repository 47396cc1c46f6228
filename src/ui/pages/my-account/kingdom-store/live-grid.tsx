import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useSearch } from 'wouter';
import type { ItemRef } from '../../../../machines/board.machine';
import { LiveItemCard } from './item-card';

const CARD_MIN_WIDTH = 290;
const GAP = 16;

/** As many columns of at least CARD_MIN_WIDTH as fit, but never an empty one: a single card takes the whole width. */
export function columnsFor(width: number, count: number): number {
  const fit = Math.floor((width + GAP) / (CARD_MIN_WIDTH + GAP));
  return Math.max(1, Math.min(fit, count));
}

/** Live items in a grid whose rows are virtualised against the window: smooth with hundreds. */
export function LiveGrid({ items }: { items: ItemRef[] }) {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const [offset, setOffset] = useState(0);

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => {
      setWidth(el.clientWidth);
      setOffset(el.getBoundingClientRect().top + window.scrollY);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const shown = columnsFor(width, items.length);
  const rows = Math.ceil(items.length / shown);
  const virtualizer = useWindowVirtualizer({ count: rows, estimateSize: () => 300 + GAP, overscan: 3, scrollMargin: offset });
  useEffect(() => virtualizer.measure(), [shown, virtualizer]);

  // ?item=ID (a link from Discord's /auctions): that item's row is scrolled into view, once, when it is live
  const linked = Number(new URLSearchParams(useSearch()).get('item'));
  const scrolledTo = useRef<number | null>(null);
  useEffect(() => {
    if (!linked || width === 0 || scrolledTo.current === linked) return;
    const at = items.findIndex((item) => item.getSnapshot().context.itemId === linked);
    if (at < 0) return;
    scrolledTo.current = linked;
    virtualizer.scrollToIndex(Math.floor(at / shown), { align: 'start' });
  }, [linked, items, shown, width, virtualizer]);

  return (
    <div ref={ref} style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
      {virtualizer.getVirtualItems().map((row) => (
        <div
          key={row.key}
          data-index={row.index}
          ref={virtualizer.measureElement}
          className="absolute inset-x-0 grid"
          style={{ top: row.start - virtualizer.options.scrollMargin, gridTemplateColumns: `repeat(${shown}, minmax(0, 1fr))`, gap: GAP, paddingBottom: GAP }}
        >
          {items.slice(row.index * shown, row.index * shown + shown).map((item) => (
            <LiveItemCard key={item.id} item={item} />
          ))}
        </div>
      ))}
    </div>
  );
}
