import type { ChildProcess } from 'node:child_process';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARD_ERRORS, CARD_HEIGHT, CARD_THEMES, CARD_WIDTH, SHARE_LINK_TTL_MS } from '../../src/protocol/cards';
import { LOCALES } from '../../src/protocol/locales';
import { SCAN_ERRORS } from '../../src/protocol/scans';
import { AUTH_ERRORS } from '../../src/protocol/auth';
import { CardPool } from '../../server/cards/pool';
import { Unavailable } from '../../server/errors';
import { LONG_NAMES, seedCardKingdom, type CardKingdom } from '../../scripts/cards-kingdom';
import { call, leadershipServer, login, newAccount, register } from './helpers';

let now = Date.UTC(2026, 9, 16, 9);
let server: Awaited<ReturnType<typeof leadershipServer>>['server'];
let admin: Awaited<ReturnType<typeof leadershipServer>>['admin'];
let council: Awaited<ReturnType<typeof leadershipServer>>['council'];
let player: { token: string; username: string };
let other: { token: string };
let kingdom: CardKingdom;

beforeAll(async () => {
  ({ server, admin, council } = await leadershipServer({ now: () => now }));
  // the player signs up with a governor of the fixture scans, so the sign-up links it
  const account = await register(server, { ...newAccount('cardplayer'), playerid: String(LONG_NAMES.emoji) });
  player = { token: await login(server, account.email), username: account.username };
  const stranger = await register(server, newAccount('stranger'));
  other = { token: await login(server, stranger.email) };
  const row = await server.db.selectFrom('users').select('id').where('username', '=', account.username).executeTakeFirstOrThrow();
  kingdom = await seedCardKingdom(server.db, now, { playerId: row.id });
}, 120_000);
afterAll(() => server.close());

/** GET a card with its bytes. */
async function image(url: string, token?: string, headers: Record<string, string> = {}) {
  const response = await fetch(server.httpUrl + url, { headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) } });
  const bytes = Buffer.from(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, bytes, json: () => JSON.parse(bytes.toString('utf8')) as { result: boolean; error: string } };
}

/** A PNG's signature and its IHDR: width, height, bit depth and colour type. */
function pngHeader(bytes: Buffer) {
  expect(bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true);
  expect(bytes.subarray(12, 16).toString('latin1')).toBe('IHDR');
  expect(bytes.subarray(bytes.length - 8, bytes.length - 4).toString('latin1')).toBe('IEND');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe('every card, every language, both themes', () => {
  const kinds = () => [`/cards/governor/${LONG_NAMES.arabic}.png`, `/cards/kvk/${kingdom.seasonId}.png?top=25`, `/cards/items/${kingdom.itemId}.png`];
  it('is a PNG of 1200 × 675 under 250 KB', async () => {
    for (const path of kinds()) {
      for (const lang of LOCALES) {
        for (const theme of CARD_THEMES) {
          const url = `${path}${path.includes('?') ? '&' : '?'}lang=${lang}&theme=${theme}`;
          const answer = await image(url, admin.token);
          expect(answer.status, url).toBe(200);
          expect(answer.headers.get('content-type')).toBe('image/png');
          expect(pngHeader(answer.bytes)).toEqual({ width: CARD_WIDTH, height: CARD_HEIGHT });
          expect(answer.bytes.length).toBeLessThan(250 * 1024);
        }
      }
    }
  }, 180_000);
});

describe('cache by content', () => {
  it('gives the same bytes and ETag for the same data, 304 on If-None-Match, another ETag for another language or new data', async () => {
    const url = `/cards/governor/${LONG_NAMES.chinese}.png?lang=zh&theme=dark`;
    const first = await image(url, council.token);
    const again = await image(url, admin.token);
    const etag = first.headers.get('etag') as string;
    expect(etag).toMatch(/^"[\w-]{32}"$/);
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.bytes.equals(first.bytes)).toBe(true);

    const notModified = await image(url, council.token, { 'if-none-match': etag });
    expect(notModified.status).toBe(304);
    expect(notModified.bytes.length).toBe(0);
    expect((await image(url, council.token, { 'if-none-match': '"other"' })).status).toBe(200);

    const french = await image(`/cards/governor/${LONG_NAMES.chinese}.png?lang=fr&theme=dark`, council.token);
    expect(french.headers.get('etag')).not.toBe(etag);

    // the kingdom's name is on the card: new data, a new card
    await server.db.updateTable('kingdom_settings').set({ kingdom_name: 'Kingdom 3328 renamed' }).where('id', '=', 1).execute();
    const renamed = await image(url, council.token, { 'if-none-match': etag });
    expect(renamed.status).toBe(200);
    expect(renamed.headers.get('etag')).not.toBe(etag);
  }, 60_000);
});

describe('who may read a card', () => {
  it('a player reads their own governor, not another; council and admin read any', async () => {
    expect((await image(`/cards/governor/${LONG_NAMES.emoji}.png`, player.token)).status).toBe(200);
    const refused = await image(`/cards/governor/${LONG_NAMES.arabic}.png`, player.token);
    expect(refused.status).toBe(403);
    expect(refused.json().error).toBe(SCAN_ERRORS.notYourGovernor);
    expect((await image(`/cards/governor/${LONG_NAMES.arabic}.png`, council.token)).status).toBe(200);
    expect((await image(`/cards/governor/${LONG_NAMES.arabic}.png`)).status).toBe(401);
  }, 60_000);

  it('KvK standings: council and admin only', async () => {
    const refused = await image(`/cards/kvk/${kingdom.seasonId}.png`, player.token);
    expect(refused.status).toBe(403);
    expect(refused.json().error).toBe(AUTH_ERRORS.forbidden);
    expect((await image(`/cards/kvk/${kingdom.seasonId}.png?window=Pass%204&alliance=K2`, council.token)).status).toBe(200);
  }, 60_000);

  it('a sale: its winner, council and admin', async () => {
    expect((await image(`/cards/items/${kingdom.itemId}.png`, player.token)).status).toBe(200);
    const refused = await image(`/cards/items/${kingdom.itemId}.png`, other.token);
    expect(refused.status).toBe(403);
    expect(refused.json().error).toBe(CARD_ERRORS.notYourSale);
  }, 60_000);
});

describe('bad parameters get a sentence, never an image', () => {
  it.each([
    ['/cards/governor/abc.png', 400, CARD_ERRORS.badGovernorId],
    [`/cards/governor/${LONG_NAMES.arabic}.png?lang=de`, 400, CARD_ERRORS.badLang],
    [`/cards/governor/${LONG_NAMES.arabic}.png?theme=blue`, 400, CARD_ERRORS.badTheme],
    [`/cards/governor/${LONG_NAMES.arabic}.png?scan=x`, 400, CARD_ERRORS.badScan],
    ['/cards/governor/99999999.png', 404, SCAN_ERRORS.unknownGovernor],
    ['/cards/kvk/1.png?top=11', 400, CARD_ERRORS.badTop],
    ['/cards/kvk/0.png', 400, CARD_ERRORS.badSeasonId],
    ['/cards/items/999999.png', 404, CARD_ERRORS.unknownItem],
  ])('%s → %i', async (url, status, error) => {
    const answer = await image(url, admin.token);
    expect(answer.status).toBe(status);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(answer.json()).toEqual({ result: false, error });
  });

  it('a governor not in the scan asked for', async () => {
    // the fixture's second scan has every governor; a scan id that does not exist
    const answer = await image(`/cards/governor/${LONG_NAMES.arabic}.png?scan=999`, admin.token);
    expect(answer.status).toBe(404);
    expect(answer.json().error).toBe(SCAN_ERRORS.unknownScan);
  });
});

describe('share links', () => {
  const own = `/cards/governor/${LONG_NAMES.emoji}.png?lang=ar&theme=dark`;

  it('show that one image to anyone until revoked', async () => {
    const made = await call(server, 'POST', '/cards/share', { token: player.token, body: { path: own } });
    expect(made.status, made.text).toBe(200);
    const url = made.body.url as string;
    const token = /\/cards\/shared\/([\w-]{43})\.png$/.exec(url)?.[1];
    expect(token).toBeDefined();
    const path = url.slice(url.indexOf('/cards/shared/'));

    const shown = await image(path);
    expect(shown.status).toBe(200);
    expect(pngHeader(shown.bytes)).toEqual({ width: CARD_WIDTH, height: CARD_HEIGHT });
    const direct = await image(own, player.token);
    expect(shown.headers.get('etag')).toBe(direct.headers.get('etag'));

    // nothing else through the token: it is no bearer token, and no other path takes it
    expect((await call(server, 'GET', '/governors/mine', { token })).status).toBe(401);
    expect((await image(`/cards/shared/${token}`)).headers.get('content-type')).not.toBe('image/png');
    expect((await image(`/cards/shared/${token}.png/../../governors/mine`)).headers.get('content-type')).not.toMatch(/json|png/);

    // listed for its creator, not for another player; every link for an admin
    const mine = await call(server, 'GET', '/cards/shares', { token: player.token });
    expect((mine.body.links as { path: string }[]).map((l) => l.path)).toContain(own);
    expect((await call(server, 'GET', '/cards/shares?all=true', { token: player.token })).status).toBe(403);
    const id = (made.body.link as { id: number }).id;
    expect((await call(server, 'DELETE', `/cards/shares/${id}`, { token: other.token })).status).toBe(403);

    const revoked = await call(server, 'DELETE', `/cards/shares/${id}`, { token: player.token });
    expect(revoked.status, revoked.text).toBe(200);
    const gone = await image(path);
    expect(gone.status).toBe(404);
    expect(gone.json().error).toBe(CARD_ERRORS.linkGone);
  }, 60_000);

  it('an admin revokes anyone’s link (audited)', async () => {
    const made = await call(server, 'POST', '/cards/share', { token: player.token, body: { path: own } });
    const id = (made.body.link as { id: number }).id;
    const all = await call(server, 'GET', '/cards/shares?all=true', { token: admin.token });
    expect((all.body.links as { id: number; username: string }[]).find((l) => l.id === id)?.username).toBe(player.username);
    expect((await call(server, 'DELETE', `/cards/shares/${id}`, { token: admin.token })).status).toBe(200);
    expect((await image((made.body.url as string).slice((made.body.url as string).indexOf('/cards/shared/')))).status).toBe(404);
    const audit = await server.db.selectFrom('audit_log').select(['action', 'target']).where('action', '=', 'share.revoke').execute();
    expect(audit).toContainEqual({ action: 'share.revoke', target: `share link ${id}` });
  }, 60_000);

  it('expire after 30 days', async () => {
    const made = await call(server, 'POST', '/cards/share', { token: player.token, body: { path: `/cards/items/${kingdom.itemId}.png` } });
    expect(made.status, made.text).toBe(200);
    const path = (made.body.url as string).slice((made.body.url as string).indexOf('/cards/shared/'));
    const start = now;
    try {
      now = start + SHARE_LINK_TTL_MS - 1;
      expect((await image(path)).status).toBe(200);
      now = start + SHARE_LINK_TTL_MS;
      expect((await image(path)).status).toBe(404);
    } finally {
      now = start;
    }
  }, 60_000);

  it('only a card the caller may read', async () => {
    const notACard = await call(server, 'POST', '/cards/share', { token: player.token, body: { path: '/governors/mine' } });
    expect(notACard.status).toBe(400);
    expect(notACard.body.error).toBe(CARD_ERRORS.badPath);
    const notTheirs = await call(server, 'POST', '/cards/share', { token: player.token, body: { path: `/cards/governor/${LONG_NAMES.arabic}.png` } });
    expect(notTheirs.status).toBe(403);
    const badLang = await call(server, 'POST', '/cards/share', { token: player.token, body: { path: `${own}&lang=xx` } });
    expect(badLang.status).toBe(400);
    expect((await image('/cards/shared/not-a-token.png')).status).toBe(404);
  }, 60_000);
});

describe('the drawing pool', () => {
  const sale = { kind: 'sale' as const, kingdom: 'K', itemName: 'Item', image: null, winner: 'w', amount: 1, at: 0 };
  /** The pool's drawer processes (private: the test looks inside). */
  const drawers = (pool: CardPool) => (pool as unknown as { slots: { child: ChildProcess }[] }).slots.map((s) => s.child);

  it('draws at the lowest CPU priority, and a drawer that dies fails its card with an error and is replaced', async () => {
    const pool = new CardPool({ size: 1, maxQueue: 4 });
    try {
      const drawing = pool.draw(sale, 'en', 'light', null);
      const [drawer] = drawers(pool);
      expect(os.getPriority(drawer.pid)).toBe(19);
      drawer.kill('SIGKILL');
      await expect(drawing).rejects.toThrow(/A card drawer stopped/);
      expect(pngHeader(await pool.draw(sale, 'en', 'dark', null)).width).toBe(CARD_WIDTH);
      expect(drawers(pool)).toHaveLength(1);
      expect(drawers(pool)[0].pid).not.toBe(drawer.pid);
    } finally {
      await pool.close();
    }
  }, 60_000);

  it('refuses a card over its queue at once, with a sentence (503)', async () => {
    const pool = new CardPool({ size: 1, maxQueue: 1 });
    try {
      const data = sale;
      const first = pool.draw(data, 'en', 'light', null);
      const second = pool.draw(data, 'en', 'dark', null);
      await expect(pool.draw(data, 'fr', 'light', null)).rejects.toEqual(new Unavailable(CARD_ERRORS.busy));
      const [a, b] = await Promise.all([first, second]);
      expect(pngHeader(a).width).toBe(CARD_WIDTH);
      expect(pngHeader(b).width).toBe(CARD_WIDTH);
    } finally {
      await pool.close();
    }
  }, 60_000);
});
