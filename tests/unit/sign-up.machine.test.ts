import { describe, expect, it, vi } from 'vitest';
import { SimulatedClock, createActor, fromPromise, waitFor } from 'xstate';
import { EMPTY_SIGN_UP, signUpMachine, validateSignUp, type SignUpValues } from '../../src/machines/sign-up.machine';
import en from '../../src/locales/en.json';
import { deferred, type Deferred } from './support/fixtures';

const GOOD: SignUpValues = {
  username: 'Aethelred',
  playerid: '123456789',
  email: 'Aethelred@Example.com',
  password: 'Kingdom1!',
  confirm: 'Kingdom1!',
};

type RegisterInput = { username: string; playerid: string; email: string; password: string };

function start() {
  const calls: { input: RegisterInput; answer: Deferred<void> }[] = [];
  const register = vi.fn((input: RegisterInput) => {
    const answer = deferred<void>();
    calls.push({ input, answer });
    return answer.promise;
  });
  const actor = createActor(
    signUpMachine.provide({ actors: { register: fromPromise<void, RegisterInput>(({ input }) => register(input)) } }),
    { clock: new SimulatedClock() },
  ).start();
  const fill = (values: Partial<SignUpValues>) => {
    for (const [field, value] of Object.entries(values)) actor.send({ type: 'CHANGE', field: field as keyof SignUpValues, value });
  };
  return {
    actor,
    calls,
    register,
    fill,
    snap: () => actor.getSnapshot(),
    until: (s: 'success' | 'error') => waitFor(actor, (x) => x.matches(s), { timeout: 1000 }),
  };
}

const errorsOf = (values: Partial<SignUpValues>) => validateSignUp({ ...GOOD, ...values });

describe('validateSignUp', () => {
  it('accepts a complete, valid form', () => {
    expect(validateSignUp(GOOD)).toEqual({});
  });

  it('lists every required field of an empty form', () => {
    expect(validateSignUp(EMPTY_SIGN_UP)).toEqual({
      username: 'signup.usernameRequired',
      playerid: 'signup.playeridRequired',
      email: 'signup.emailInvalid',
      password: 'signup.passwordRule',
      confirm: 'signup.confirmRequired',
    });
  });

  it('username is required (blank counts as empty)', () => {
    expect(errorsOf({ username: '' })).toEqual({ username: 'signup.usernameRequired' });
    expect(errorsOf({ username: '   ' })).toEqual({ username: 'signup.usernameRequired' });
  });

  it('governor id is required and digits only (one text for both: "a valid governer id")', () => {
    expect(errorsOf({ playerid: '' })).toEqual({ playerid: 'signup.playeridRequired' });
    expect(errorsOf({ playerid: '  ' })).toEqual({ playerid: 'signup.playeridRequired' });
    expect(errorsOf({ playerid: '12a45' })).toEqual({ playerid: 'signup.playeridRequired' });
    expect(errorsOf({ playerid: '-123' })).toEqual({ playerid: 'signup.playeridRequired' });
    expect(errorsOf({ playerid: '12.5' })).toEqual({ playerid: 'signup.playeridRequired' });
    expect(errorsOf({ playerid: '1234567890123' })).toEqual({ playerid: 'signup.playeridRequired' });
    expect(errorsOf({ playerid: ' 42 ' })).toEqual({});
    expect(errorsOf({ playerid: '7' })).toEqual({});
    // 0 is no governor; leading zeros are the same governor (the server stores it without them)
    expect(errorsOf({ playerid: '0' })).toEqual({ playerid: 'signup.playeridRequired' });
    expect(errorsOf({ playerid: '000' })).toEqual({ playerid: 'signup.playeridRequired' });
    expect(errorsOf({ playerid: '0042' })).toEqual({});
  });

  it.each(['', 'plain', 'no-at.example.com', 'a@b', '@example.com', 'a@.', 'a b@example.com'])('rejects the email %j', (email) => {
    expect(errorsOf({ email })).toEqual({ email: 'signup.emailInvalid' });
  });

  it.each(['a@b.co', ' user@example.com ', 'First.Last+tag@sub.example.org'])('accepts the email %j', (email) => {
    expect(errorsOf({ email })).toEqual({});
  });

  it.each([
    ['no digit', 'Kingdomm!'],
    ['no uppercase letter', 'kingdom1!'],
    ['no lowercase letter', 'KINGDOM1!'],
    ['no special character', 'Kingdom12'],
    ['7 characters', 'Kingd1!'],
    ['empty', ''],
  ])('rejects a password with %s', (_why, password) => {
    expect(errorsOf({ password, confirm: password })).toEqual(password === '' ? { password: 'signup.passwordRule', confirm: 'signup.confirmRequired' } : { password: 'signup.passwordRule' });
  });

  it('accepts a password of exactly 8 characters with every class', () => {
    expect('Kingd1!x').toHaveLength(8);
    expect(errorsOf({ password: 'Kingd1!x', confirm: 'Kingd1!x' })).toEqual({});
    // a space is a special character too
    expect(errorsOf({ password: 'King 1dm', confirm: 'King 1dm' })).toEqual({});
  });

  it('confirm is required, and must equal the password', () => {
    expect(errorsOf({ confirm: '' })).toEqual({ confirm: 'signup.confirmRequired' });
    expect(errorsOf({ confirm: 'Kingdom1?' })).toEqual({ confirm: 'signup.confirmMismatch' });
    expect(errorsOf({ confirm: 'Kingdom1! ' })).toEqual({ confirm: 'signup.confirmMismatch' });
  });
});

describe('sign-up field errors in English', () => {
  it("every id validateSignUp can give is an English message, word for word", () => {
    const messages: Record<string, string> = en;
    const all = { ...validateSignUp(EMPTY_SIGN_UP), ...errorsOf({ playerid: 'abc' }), ...errorsOf({ confirm: 'other' }) };
    const texts = Object.fromEntries(Object.entries(all).map(([field, id]) => [field, messages[id as string]]));
    expect(texts).toEqual({
      username: 'Please fill in a valid username',
      playerid: 'Please fill in a valid governer id',
      email: 'Please fill in a valid email',
      password: 'Password must contain minimum eight characters, at least one uppercase letter, one number and one special character!',
      confirm: 'The two passwords that you entered do not match!',
    });
    expect(messages[validateSignUp(EMPTY_SIGN_UP).confirm as string]).toBe('Please confirm your password!');
    expect(messages['signup.success']).toBe('Your account has been created');
    expect(messages['signup.error']).toBe('There was an error creating your account');
  });
});

describe('signUp machine', () => {
  it('starts idle with an empty form', () => {
    const t = start();
    expect(t.snap().value).toBe('idle');
    expect(t.snap().context).toEqual({ values: EMPTY_SIGN_UP, errors: {}, serverError: null });
  });

  it('an invalid submit shows the field errors and never calls register', () => {
    const t = start();
    t.fill({ ...GOOD, password: 'short', confirm: 'other' });
    t.actor.send({ type: 'SUBMIT' });
    expect(t.snap().value).toBe('idle');
    expect(t.snap().context.errors).toEqual({ password: 'signup.passwordRule', confirm: 'signup.confirmMismatch' });
    expect(t.register).not.toHaveBeenCalled();
  });

  it('editing a field clears that field error', () => {
    const t = start();
    t.actor.send({ type: 'SUBMIT' });
    t.fill({ username: 'Bob' });
    expect(t.snap().context.errors.username).toBeUndefined();
    expect(t.snap().context.errors.email).toBe('signup.emailInvalid');
  });

  it('idle → submitting → success: registers the trimmed, lowercased payload and clears the form', async () => {
    const t = start();
    t.fill({ ...GOOD, username: ' Aethelred ', playerid: ' 123456789 ', email: ' Aethelred@Example.com ' });
    t.actor.send({ type: 'SUBMIT' });
    expect(t.snap().value).toBe('submitting');
    expect(t.calls[0].input).toEqual({ username: 'Aethelred', playerid: '123456789', email: 'aethelred@example.com', password: 'Kingdom1!' });

    t.calls[0].answer.resolve();
    await t.until('success');
    expect(t.snap().context).toEqual({ values: EMPTY_SIGN_UP, errors: {}, serverError: null });
  });

  it('error keeps the values and stores the server error', async () => {
    const t = start();
    t.fill(GOOD);
    t.actor.send({ type: 'SUBMIT' });
    t.calls[0].answer.reject(new Error('This username is already taken.'));
    await t.until('error');
    expect(t.snap().context.values).toEqual(GOOD);
    expect(t.snap().context.serverError).toBe('This username is already taken.');
  });

  it('ignores edits and submits while submitting', () => {
    const t = start();
    t.fill(GOOD);
    t.actor.send({ type: 'SUBMIT' });
    t.actor.send({ type: 'SUBMIT' });
    t.fill({ username: 'Other' });
    expect(t.snap().value).toBe('submitting');
    expect(t.register).toHaveBeenCalledTimes(1);
    expect(t.snap().context.values.username).toBe('Aethelred');
  });

  it('alerts reset at each submit: a new submit after an error clears the error alert', async () => {
    const t = start();
    t.fill(GOOD);
    t.actor.send({ type: 'SUBMIT' });
    t.calls[0].answer.reject(new Error('boom'));
    await t.until('error');

    t.actor.send({ type: 'SUBMIT' });
    expect(t.snap().value).toBe('submitting');
    expect(t.snap().context.serverError).toBeNull();
    t.calls[1].answer.resolve();
    await t.until('success');
    expect(t.snap().context.serverError).toBeNull();
  });

  it('alerts reset at each submit: an invalid submit after an error leaves no error alert', async () => {
    const t = start();
    t.fill(GOOD);
    t.actor.send({ type: 'SUBMIT' });
    t.calls[0].answer.reject(new Error('boom'));
    await t.until('error');
    t.fill({ confirm: 'nope' });
    t.actor.send({ type: 'SUBMIT' });
    expect(t.snap().value).toBe('idle');
    expect(t.snap().context.serverError).toBeNull();
    expect(t.snap().context.errors).toEqual({ confirm: 'signup.confirmMismatch' });
  });

  it('alerts reset at each submit: submitting the cleared form after success drops the success alert', async () => {
    const t = start();
    t.fill(GOOD);
    t.actor.send({ type: 'SUBMIT' });
    t.calls[0].answer.resolve();
    await t.until('success');
    t.actor.send({ type: 'SUBMIT' });
    expect(t.snap().value).toBe('idle');
    expect(Object.keys(t.snap().context.errors).sort()).toEqual(['confirm', 'email', 'password', 'playerid', 'username']);
  });
});
