/** Whether a From–To period ends before it starts (dates as YYYY-MM-DD or epoch ms; an empty end is open). */
export function periodBackwards(from: string | number | undefined, to: string | number | undefined): boolean {
  if (from === undefined || to === undefined || from === '' || to === '') return false;
  return from > to;
}

/** Today as YYYY-MM-DD (for the date filters' file names). */
export const today = () => new Date().toISOString().slice(0, 10);
