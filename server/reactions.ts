import type { AppContext } from './context';
import type { Reactions } from './events/reactions';
import { ANNOUNCED_KINDS } from './discord/announcements';
import { warmRunningSeasons } from './kvk/standings';
import { NOTICE_EVENT_KINDS } from './notices/drafts';
import type { Notices } from './notices/producer';

/**
 * Every reaction to domain events, registered here and nowhere else, at start-up (server/app.ts).
 * Each runs after the commit of the change it reacts to, once per event, from its own cursor; see
 * server/events/reactions.ts for what a reaction must keep (idempotent by event or by its own key).
 */
export function registerReactions(reactions: Reactions, ctx: Pick<AppContext, 'automatic' | 'bots' | 'db' | 'discord'> & { notices: Notices }): void {
  // rules with auto on run over the new scan (a run's unique key makes a second try pay nothing)
  reactions.on({ name: 'automatic-points', kinds: ['scan.applied'], handle: (event) => ctx.automatic.runAfterScan((event.data as { scanId: number }).scanId) });
  // the running KvK seasons now end at this scan: their standings are computed ahead of the first reader
  reactions.on({ name: 'kvk-warm-up', kinds: ['scan.applied'], handle: () => warmRunningSeasons(ctx.db) });
  // a bot's upload: its last scan time (stored, and told to the admins watching this process's bots)
  reactions.on({
    name: 'bot-status',
    kinds: ['scan.applied'],
    handle: async (event) => {
      const { botId } = event.data as { botId: number | null };
      if (botId !== null) ctx.bots.scanApplied(botId, event.at);
    },
  });
  // Discord hears of sales, new bidding, scans and points runs: queued in the outbox once per event (its unique key), sent apart
  reactions.on({ name: 'discord-announcements', kinds: ANNOUNCED_KINDS, handle: (event) => ctx.discord.enqueue(event) });
  // notices (started, won, lost, points, automatic, max exhausted or dropped): once per account and cause (their unique key), then NOTICE to the app
  reactions.on({ name: 'notices', kinds: NOTICE_EVENT_KINDS, handle: (event) => ctx.notices.handle(event), handleAll: (events) => ctx.notices.handleAll(events) });
}
