import crypto from 'node:crypto';
import { DISCORD_MAX_SKEW_S } from '../../src/protocol/discord';

/** An Ed25519 public key's DER (SPKI) prefix: the 32 raw bytes Discord shows follow it. */
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/**
 * Whether an interaction is Discord's: its X-Signature-Ed25519 (hex) over X-Signature-Timestamp
 * followed by the raw body, with the application's public key (hex), and its timestamp within
 * DISCORD_MAX_SKEW_S of `nowMs` (an old signed request replayed later is refused).
 */
export function verifyInteraction(publicKeyHex: string, signatureHex: string | undefined, timestamp: string | undefined, body: Buffer, nowMs: number): boolean {
  if (!signatureHex || !timestamp || !/^[0-9a-f]{128}$/i.test(signatureHex) || !/^\d{1,12}$/.test(timestamp)) return false;
  if (Math.abs(nowMs / 1000 - Number(timestamp)) > DISCORD_MAX_SKEW_S) return false;
  try {
    const key = crypto.createPublicKey({ key: Buffer.concat([SPKI_PREFIX, Buffer.from(publicKeyHex, 'hex')]), format: 'der', type: 'spki' });
    return crypto.verify(null, Buffer.concat([Buffer.from(timestamp, 'utf8'), body]), key, Buffer.from(signatureHex, 'hex'));
  } catch {
    return false; // a key that is not an Ed25519 point
  }
}
