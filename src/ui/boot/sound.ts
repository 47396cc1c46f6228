/** The bidding-start sound plays at volume 0.5. */
export const START_SOUND_VOLUME = 0.5;

let url: string | null = null;

/** A short two-note chime, made once as a WAV in memory: no asset to fetch. */
function chimeUrl(): string {
  if (url) return url;
  const rate = 22050;
  const seconds = 0.45;
  const n = Math.floor(rate * seconds);
  const data = new DataView(new ArrayBuffer(44 + n * 2));
  const text = (offset: number, s: string) => [...s].forEach((c, i) => data.setUint8(offset + i, c.charCodeAt(0)));
  text(0, 'RIFF');
  data.setUint32(4, 36 + n * 2, true);
  text(8, 'WAVEfmt ');
  data.setUint32(16, 16, true);
  data.setUint16(20, 1, true);
  data.setUint16(22, 1, true);
  data.setUint32(24, rate, true);
  data.setUint32(28, rate * 2, true);
  data.setUint16(32, 2, true);
  data.setUint16(34, 16, true);
  text(36, 'data');
  data.setUint32(40, n * 2, true);
  for (let i = 0; i < n; i++) {
    const t = i / rate;
    const freq = t < 0.18 ? 880 : 1318.5;
    const envelope = Math.exp(-6 * (t < 0.18 ? t : t - 0.18));
    data.setInt16(44 + i * 2, Math.sin(2 * Math.PI * freq * t) * envelope * 0.6 * 32767, true);
  }
  url = URL.createObjectURL(new Blob([data.buffer], { type: 'audio/wav' }));
  return url;
}

/** Plays the chime; a browser that blocks sound before any click simply stays quiet. */
export function playStartSound(): HTMLAudioElement | null {
  if (typeof Audio === 'undefined') return null;
  const audio = new Audio(chimeUrl());
  audio.volume = START_SOUND_VOLUME;
  audio.play().catch(() => undefined);
  return audio;
}
