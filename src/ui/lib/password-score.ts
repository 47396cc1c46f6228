import { PASSWORD_MIN_LENGTH } from '../../protocol/auth';

/** 0 (too weak) to 4 (strong): the four character classes and the length, for the indicator. */
export function passwordScore(password: string): 0 | 1 | 2 | 3 | 4 {
  if (!password) return 0;
  const classes = [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z0-9]/].filter((re) => re.test(password)).length;
  let score = classes - 1; // 0..3
  if (password.length < PASSWORD_MIN_LENGTH) score = Math.min(score, 1);
  else if (classes === 4) score = password.length >= 12 ? 4 : 3;
  return Math.max(0, Math.min(4, score)) as 0 | 1 | 2 | 3 | 4;
}
