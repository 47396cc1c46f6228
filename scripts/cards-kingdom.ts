/**
 * A small kingdom for the stat cards' gallery, benchmark and tests: the repository's two fixture
 * scans (tests/fixtures/scans: forty governors, the longest and most decorated names players use,
 * in Latin, Arabic, Chinese, Korean, Vietnamese and emoji, one governor whose T4/T5 kills were not
 * read), a running KvK season over them, a player and a sale.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db } from '../server/db/open';
import { createSeason } from '../server/kvk/seasons';
import { scanFileOf } from '../server/scans/read';
import { ScanImports } from '../server/scans/imports';
import { PreviewStore } from '../server/previews/store';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'tests', 'fixtures', 'scans');
export const FIXTURE_SCANS = ['kingdom-2026-10-01.csv', 'kingdom-2026-10-15.csv'];
/** The governors of the fixture scans with the longest names, one per script. */
export const LONG_NAMES = { latin: 51000001, arabic: 51000002, chinese: 51000003, korean: 51000004, vietnamese: 51000005, emoji: 51000006, decorated: 51000007, notScanned: 51000009 } as const;

export interface CardKingdom {
  adminId: number;
  playerId: number;
  scans: number[];
  seasonId: number;
  itemId: number;
}

async function addUser(db: Db, username: string, rank: string, playerid: string, now: number): Promise<number> {
  const row = await db
    .insertInto('users')
    .values({ email: `${username}@example.test`, username, playerid, password_hash: 'not-a-hash', rank, created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Seeds `db` (migrated, without scans) with the fixture kingdom. `image`: an uploaded image's URL for
 * the sold item; `playerId`: an account already linked to LONG_NAMES.emoji (signed up with it), who
 * wins the sale; without one, such a player is made.
 */
export async function seedCardKingdom(db: Db, now: number, options: { image?: string | null; playerId?: number } = {}): Promise<CardKingdom> {
  const image = options.image ?? null;
  await db.updateTable('kingdom_settings').set({ kingdom_name: 'Kingdom 3328 · المملكة · 王国' }).where('id', '=', 1).execute();
  const adminId = await addUser(db, `cards-admin-${now}`, 'admin', `9${now}`, now);
  let playerId = options.playerId;
  if (playerId === undefined) {
    playerId = await addUser(db, 'dragonslayer', 'user', String(LONG_NAMES.emoji), now);
    await db.insertInto('governor_links').values({ governor_id: LONG_NAMES.emoji, user_id: playerId, verified: 1, created_at: now, updated_by: null }).execute();
  }
  const imports = new ScanImports(db, () => now, new PreviewStore(db, () => now));
  const scans: number[] = [];
  for (const [i, file] of FIXTURE_SCANS.entries()) {
    const bytes = fs.readFileSync(path.join(FIXTURES, file));
    const preview = await imports.preview({ file: await scanFileOf(bytes), fileName: file, takenAt: Date.UTC(2026, 9, 1 + 14 * i, 12), actorId: adminId });
    scans.push((await imports.apply(adminId, preview.token, { takenAt: null, skipInvalid: false })).id);
  }
  const season = await createSeason(
    db,
    {
      name: 'KvK 3 · Heroic Anthem',
      startScanId: scans[0],
      endScanId: null,
      weights: { t4Kills: 10, t5Kills: 20, deads: 15 },
      brackets: [
        { minPower: 0, kills: 2_000_000, deads: 300_000 },
        { minPower: 80_000_000, kills: 4_000_000, deads: 600_000 },
      ],
      windows: [{ name: 'Pass 4', fromScanId: scans[0], toScanId: scans[1] }],
    },
    { id: adminId, name: `cards-admin-${now}` },
    now,
  );
  const item = await db
    .insertInto('items')
    .values({
      name: 'Legendary Commander Sculpture × 10 (Guan Yu, 关羽)',
      image_url: image,
      start_price: 100,
      min_increment: 10,
      starts_at: now - 7_200_000,
      duration_s: 3600,
      ends_at: now - 3_600_000,
      extend_window_s: 0,
      max_extensions: 0,
      state: 'finished',
      leader_id: playerId,
      amount: 12_750,
      created_by: adminId,
      created_at: now - 7_200_000,
      started_at: now - 7_200_000,
      settled_at: now - 3_600_000,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db.insertInto('sales').values({ item_id: item.id, user_id: playerId, amount: 12_750, at: now - 3_600_000 }).execute();
  return { adminId, playerId, scans, seasonId: season.id, itemId: item.id };
}
