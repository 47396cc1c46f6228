import fs from 'node:fs'; import os from 'node:os'; import path from 'node:path'; import zlib from 'node:zlib';
import { cardData } from '../server/cards/data';
import { paintCard } from '../server/cards/draw';
import { openDatabase } from '../server/db/open';
import { LONG_NAMES, seedCardKingdom } from '../scripts/cards-kingdom';
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'probe-'));
const db = await openDatabase(dataDir);
const k = await seedCardKingdom(db, Date.UTC(2026, 9, 16, 9));
const admin = { id: k.adminId, rank: 'admin' };
function filtered(rgba: Uint8Array, width: number, height: number, f: number) {
  const stride = width * 3 + 1; const raw = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) { const row = y * stride; raw[row] = f; let i = y * width * 4; let j = row + 1;
    for (let x = 0; x < width; x++, i += 4, j += 3) for (let c = 0; c < 3; c++) {
      const v = rgba[i + c]; const a = x > 0 ? rgba[i + c - 4] : 0; const b = y > 0 ? rgba[i + c - width * 4] : 0;
      raw[j + c] = (f === 1 ? v - a : f === 2 ? v - b : f === 0 ? v : v - ((a + b) >> 1)) & 255; } }
  return raw;
}
for (const r of [{ kind: 'governor', governorId: LONG_NAMES.arabic }, { kind: 'kvk', seasonId: k.seasonId, top: 25 }] as any[]) {
  const d = await cardData(db, { ...r, lang: 'en', theme: 'dark' }, admin);
  const px = await paintCard(d, 'en', 'dark', null);
  for (const f of [0, 1, 2, 3]) { const raw = filtered(px, 1200, 675, f);
    for (const [level, strategy] of [[1, 0], [3, 0], [6, 0], [1, zlib.constants.Z_RLE], [6, zlib.constants.Z_FILTERED]]) {
      const t0 = performance.now(); let out; for (let i = 0; i < 5; i++) out = zlib.deflateSync(raw, { level, strategy }); const t = (performance.now() - t0) / 5;
      console.log(r.kind, 'filter', f, 'level', level, 'strat', strategy, t.toFixed(1), 'ms', out!.length); } }
}
await db.destroy();
