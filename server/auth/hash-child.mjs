/**
 * argon2id in a process of its own, at a low CPU priority (server/auth/passwords.ts forks it): a
 * flood of sign-ups then takes the CPU only when the server and its players do not want it.
 * Plain JavaScript, so that it runs without the TypeScript loader (npm run serve, tests, benches).
 * Messages: { id, op: 'hash', password, cost } → { id, value: hash }; { id, op: 'verify', hash,
 * password } → { id, value: boolean }; a failure → { id, error }. Exits when its parent goes.
 */
import argon2 from 'argon2';

process.on('message', (message) => {
  const { id, op } = message;
  const job =
    op === 'hash'
      ? argon2.hash(message.password, { type: argon2.argon2id, ...message.cost })
      : argon2.verify(message.hash, message.password).catch(() => false);
  job.then(
    (value) => process.send?.({ id, value }),
    (error) => process.send?.({ id, error: String(error) }),
  );
});
process.on('disconnect', () => process.exit(0));
