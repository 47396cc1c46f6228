/**
 * npm run cards:gallery [-- FOLDER] — every stat card in English, Arabic, Chinese and French, light
 * and dark, drawn from the repository's fixture scans (tests/fixtures/scans) with the longest names,
 * written as PNG files to FOLDER (default cards-gallery/, ignored by git) for a person to look at.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CARD_THEMES } from '../src/protocol/cards';
import type { Locale } from '../src/protocol/locales';
import { cardData, type CardRequest } from '../server/cards/data';
import { drawCard } from '../server/cards/draw';
import { openDatabase } from '../server/db/open';
import { LONG_NAMES, seedCardKingdom } from './cards-kingdom';

const LANGS: Locale[] = ['en', 'ar', 'zh', 'fr'];

async function main() {
  const out = path.resolve(process.argv[2] ?? 'cards-gallery');
  fs.mkdirSync(out, { recursive: true });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cards-gallery-'));
  const db = await openDatabase(dataDir);
  try {
    const kingdom = await seedCardKingdom(db, Date.UTC(2026, 9, 16, 9));
    const admin = { id: kingdom.adminId, rank: 'admin' };
    const cards: [string, (lang: Locale, theme: (typeof CARD_THEMES)[number]) => CardRequest][] = [
      ...Object.entries(LONG_NAMES).map(([name, governorId]): [string, (lang: Locale, theme: (typeof CARD_THEMES)[number]) => CardRequest] => [`governor-${name}`, (lang, theme) => ({ kind: 'governor', governorId, lang, theme })]),
      ['governor-first-scan', (lang, theme) => ({ kind: 'governor', governorId: LONG_NAMES.arabic, scan: kingdom.scans[0], lang, theme })],
      ['kvk-top10', (lang, theme) => ({ kind: 'kvk', seasonId: kingdom.seasonId, top: 10, lang, theme })],
      ['kvk-top25', (lang, theme) => ({ kind: 'kvk', seasonId: kingdom.seasonId, top: 25, lang, theme })],
      ['kvk-window-alliance', (lang, theme) => ({ kind: 'kvk', seasonId: kingdom.seasonId, window: 'Pass 4', alliance: 'K2', top: 10, lang, theme })],
      ['sale', (lang, theme) => ({ kind: 'items', itemId: kingdom.itemId, lang, theme })],
    ];
    let files = 0;
    for (const [name, request] of cards) {
      for (const lang of LANGS) {
        for (const theme of CARD_THEMES) {
          const ask = request(lang, theme);
          const png = await drawCard(await cardData(db, ask, admin), lang, theme, null);
          fs.writeFileSync(path.join(out, `${name}-${lang}-${theme}.png`), png);
          files += 1;
        }
      }
    }
    console.log(`${files} cards written to ${out}`);
  } finally {
    await db.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
