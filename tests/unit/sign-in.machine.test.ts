import { describe, expect, it, vi } from 'vitest';
import { SimulatedClock, createActor, fromPromise, waitFor } from 'xstate';
import { errorText, signInMachine, validateSignIn } from '../../src/machines/sign-in.machine';
import en from '../../src/locales/en.json';
import { deferred, type Deferred } from './support/fixtures';

function start() {
  const calls: { input: { email: string; password: string }; answer: Deferred<string> }[] = [];
  const signedIn = vi.fn();
  const notifyFailure = vi.fn();
  const login = vi.fn((input: { email: string; password: string }) => {
    const answer = deferred<string>();
    calls.push({ input, answer });
    return answer.promise;
  });
  const actor = createActor(
    signInMachine.provide({
      actors: { login: fromPromise<string, { email: string; password: string }>(({ input }) => login(input)) },
      actions: {
        signedIn: (_, params) => signedIn(params),
        notifyFailure: (_, params) => notifyFailure(params),
      },
    }),
    { clock: new SimulatedClock() },
  ).start();
  const fill = (email: string, password: string) => {
    actor.send({ type: 'CHANGE', field: 'email', value: email });
    actor.send({ type: 'CHANGE', field: 'password', value: password });
  };
  return { actor, calls, login, signedIn, notifyFailure, fill, until: (s: 'editing' | 'done') => waitFor(actor, (x) => x.matches(s), { timeout: 1000 }) };
}

describe('validateSignIn', () => {
  it('requires both fields and accepts them filled', () => {
    expect(validateSignIn({ email: '', password: '', remember: true })).toEqual({
      email: 'signin.emailRequired',
      password: 'signin.passwordRequired',
    });
    expect(validateSignIn({ email: '   ', password: 'x', remember: true })).toEqual({ email: 'signin.emailRequired' });
    expect(validateSignIn({ email: 'a@b.c', password: '', remember: true })).toEqual({ password: 'signin.passwordRequired' });
    expect(validateSignIn({ email: 'a@b.c', password: ' ', remember: false })).toEqual({});
  });
});

describe('sign-in field errors in English', () => {
  it("are the sign-in form's texts", () => {
    const messages: Record<string, string> = en;
    const errors = validateSignIn({ email: '', password: '', remember: true });
    expect(messages[errors.email as string]).toBe('Please fill in an email');
    expect(messages[errors.password as string]).toBe('Please fill in a password');
  });
});

describe('errorText', () => {
  it('takes an Error message, else stringifies', () => {
    expect(errorText(new Error('The email or password is incorrect.'))).toBe('The email or password is incorrect.');
    expect(errorText('plain')).toBe('plain');
    expect(errorText(new Error(''))).toBe('Error');
  });
});

describe('signIn machine', () => {
  it('starts editing, empty, with remember on by default', () => {
    const t = start();
    expect(t.actor.getSnapshot().value).toBe('editing');
    expect(t.actor.getSnapshot().context).toEqual({ values: { email: '', password: '', remember: true }, errors: {}, failure: null });
  });

  it('empty fields: both required errors, login never called', () => {
    const t = start();
    t.actor.send({ type: 'SUBMIT' });
    expect(t.actor.getSnapshot().value).toBe('editing');
    expect(t.actor.getSnapshot().context.errors).toEqual({ email: 'signin.emailRequired', password: 'signin.passwordRequired' });
    expect(t.login).not.toHaveBeenCalled();
  });

  it('a blank email alone is required; a password alone is required', () => {
    const t = start();
    t.fill('  ', 'Secret1!');
    t.actor.send({ type: 'SUBMIT' });
    expect(t.actor.getSnapshot().context.errors).toEqual({ email: 'signin.emailRequired' });
    t.fill('a@b.io', '');
    t.actor.send({ type: 'SUBMIT' });
    expect(t.actor.getSnapshot().context.errors).toEqual({ password: 'signin.passwordRequired' });
    expect(t.login).not.toHaveBeenCalled();
  });

  it('editing a field clears its error only', () => {
    const t = start();
    t.actor.send({ type: 'SUBMIT' });
    t.actor.send({ type: 'CHANGE', field: 'email', value: 'a' });
    expect(t.actor.getSnapshot().context.errors).toEqual({ password: 'signin.passwordRequired' });
  });

  it('sends the email lowercased and trimmed, the password as typed', () => {
    const t = start();
    t.fill('  King.Arthur@Camelot.ORG ', ' Pa55word! ');
    t.actor.send({ type: 'SUBMIT' });
    expect(t.actor.getSnapshot().value).toBe('submitting');
    expect(t.login).toHaveBeenCalledTimes(1);
    expect(t.calls[0].input).toEqual({ email: 'king.arthur@camelot.org', password: ' Pa55word! ' });
  });

  it('success hands signedIn the token and remember=true by default, and finishes', async () => {
    const t = start();
    t.fill('a@b.io', 'pw');
    t.actor.send({ type: 'SUBMIT' });
    t.calls[0].answer.resolve('tok-abc');
    await t.until('done');
    expect(t.signedIn).toHaveBeenCalledTimes(1);
    expect(t.signedIn).toHaveBeenCalledWith({ token: 'tok-abc', remember: true });
    expect(t.notifyFailure).not.toHaveBeenCalled();
    expect(t.actor.getSnapshot().status).toBe('done');
  });

  it('success passes remember=false when unticked', async () => {
    const t = start();
    t.actor.send({ type: 'SET_REMEMBER', value: false });
    t.fill('a@b.io', 'pw');
    t.actor.send({ type: 'SUBMIT' });
    t.calls[0].answer.resolve('tok-x');
    await t.until('done');
    expect(t.signedIn).toHaveBeenCalledWith({ token: 'tok-x', remember: false });
  });

  it("failure notifies with the server's text, keeps it, and returns to editing with the values", async () => {
    const t = start();
    t.fill('a@b.io', 'wrong');
    t.actor.send({ type: 'SUBMIT' });
    t.calls[0].answer.reject(new Error('The email or password is incorrect.'));
    await t.until('editing');
    expect(t.notifyFailure).toHaveBeenCalledTimes(1);
    expect(t.notifyFailure).toHaveBeenCalledWith({ text: 'The email or password is incorrect.' });
    expect(t.signedIn).not.toHaveBeenCalled();
    expect(t.actor.getSnapshot().context.failure).toBe('The email or password is incorrect.');
    expect(t.actor.getSnapshot().context.values).toEqual({ email: 'a@b.io', password: 'wrong', remember: true });
  });

  it('a network failure shows the network message; the next submit clears it and retries', async () => {
    const t = start();
    t.fill('a@b.io', 'pw');
    t.actor.send({ type: 'SUBMIT' });
    t.calls[0].answer.reject(new TypeError('Failed to fetch'));
    await t.until('editing');
    expect(t.notifyFailure).toHaveBeenCalledWith({ text: 'Failed to fetch' });

    t.actor.send({ type: 'SUBMIT' });
    expect(t.actor.getSnapshot().context.failure).toBeNull();
    expect(t.login).toHaveBeenCalledTimes(2);
  });

  it('ignores edits and submits while submitting', () => {
    const t = start();
    t.fill('a@b.io', 'pw');
    t.actor.send({ type: 'SUBMIT' });
    t.actor.send({ type: 'SUBMIT' });
    t.actor.send({ type: 'CHANGE', field: 'email', value: 'other@b.io' });
    expect(t.login).toHaveBeenCalledTimes(1);
    expect(t.actor.getSnapshot().context.values.email).toBe('a@b.io');
  });
});
