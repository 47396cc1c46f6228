/**
 * The server tests' one source of randomness: a seeded generator (mulberry32), so a run that fails
 * can be replayed exactly. The seed is TEST_SEED from the environment, 1 by default; a failing
 * property test also prints fast-check's own seed and path (see ledger-property.test.ts).
 */
export const TEST_SEED = Number(process.env.TEST_SEED ?? 1);

export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** This test file's generator (each file runs in its own module scope). */
export const random = seededRandom(TEST_SEED);

/** A short lowercase suffix from the seeded generator. */
export function randomSuffix(length = 5): string {
  return Math.floor(random() * 36 ** length)
    .toString(36)
    .padStart(length, '0');
}

let unique = 0;
/** A number no other call in this test file answers (names and ids that must not collide). */
export function uniqueNumber(): number {
  unique += 1;
  return 10_000 + unique;
}
