import { FormattedMessage } from 'react-intl';
import { displayRank } from '../../protocol/ranks';
import { cn } from '../lib/cn';

/** User blue, kingdom leadership red, admin purple, unknown black. */
const COLOURS = {
  user: 'bg-blue-600 text-white',
  council: 'bg-red-600 text-white',
  admin: 'bg-purple-600 text-white',
  unknown: 'bg-black text-white ring-1 ring-white/30',
} as const;

export function RankTag({ rank, className }: { rank: unknown; className?: string }) {
  const shown = displayRank(rank);
  return (
    <span data-rank={shown} className={cn('inline-flex items-center rounded px-1.5 py-0.5 text-[11px] font-semibold uppercase tracking-wide', COLOURS[shown], className)}>
      <FormattedMessage id={`rank.${shown}`} />
    </span>
  );
}
