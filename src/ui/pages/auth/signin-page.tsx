import { useActorRef, useSelector } from '@xstate/react';
import { FormattedMessage } from 'react-intl';
import { fromPromise } from 'xstate';
import { signInMachine } from '../../../machines/sign-in.machine';
import { useChild, useRuntime } from '../../app-context';
import { forgetPickedLocale, pickedLocale } from '../../boot/storage';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { Checkbox } from '../../components/checkbox';
import { Field } from '../../components/field';
import { Input } from '../../components/input';
import { Label } from '../../components/label';
import { Spinner } from '../../components/loader';
import { PasswordInput } from '../../components/password-input';
import { AuthLayout, AuthSwitch } from './auth-layout';

/** A failed try's notification: one at a time, closed when a try succeeds. */
const SIGN_IN_ERROR = 'sign-in-error';

export default function SignInPage() {
  const { api } = useRuntime();
  const auth = useChild('auth');
  const notifications = useChild('notifications');
  const signIn = useActorRef(
    signInMachine.provide({
      actors: {
        login: fromPromise(async ({ input }) => {
          const locale = pickedLocale();
          const token = await api.login(locale ? { ...input, locale } : input);
          forgetPickedLocale();
          return token;
        }),
      },
      actions: {
        signedIn: (_, { token, remember }) => {
          // an earlier try's error is over once signed in
          notifications.send({ type: 'DISMISS_KEY', key: SIGN_IN_ERROR });
          auth.send({ type: 'LOGGED_IN', token, remember });
        },
        notifyFailure: (_, { text }) => notifications.send({ type: 'NOTIFY', notification: { kind: 'error', titleId: 'notify.error', text, key: SIGN_IN_ERROR } }),
      },
    }),
  );
  const { values, errors } = useSelector(signIn, (s) => s.context);
  const submitting = useSelector(signIn, (s) => s.matches('submitting') || s.matches('done'));
  // sent here because the server ended the session this tab held: said, rather than a silent sign-in page
  const sessionEnded = useSelector(auth, (s) => s.context.sessionEnded);

  return (
    <AuthLayout titleId="signin.title" subtitleId="signin.subtitle">
      <form
        noValidate
        className="grid gap-4"
        onSubmit={(e) => {
          e.preventDefault();
          signIn.send({ type: 'SUBMIT' });
        }}
      >
        {sessionEnded && (
          <Alert data-testid="session-ended">
            <FormattedMessage id="signin.sessionEnded" />
          </Alert>
        )}
        <Field id="email" labelId="signin.email" errorId={errors.email}>
          <Input
            type="email"
            autoComplete="email"
            value={values.email}
            onChange={(e) => signIn.send({ type: 'CHANGE', field: 'email', value: e.target.value })}
          />
        </Field>
        <Field id="password" labelId="signin.password" errorId={errors.password}>
          <PasswordInput
            autoComplete="current-password"
            value={values.password}
            onChange={(e) => signIn.send({ type: 'CHANGE', field: 'password', value: e.target.value })}
          />
        </Field>
        <div className="flex items-center gap-2">
          <Checkbox id="remember" checked={values.remember} onCheckedChange={(v) => signIn.send({ type: 'SET_REMEMBER', value: v === true })} />
          <Label htmlFor="remember" className="font-normal">
            <FormattedMessage id="signin.remember" />
          </Label>
        </div>
        <Button type="submit" size="lg" disabled={submitting} aria-busy={submitting}>
          {submitting && <Spinner className="h-4 w-4 border-primary-foreground/40 border-t-primary-foreground" />}
          <FormattedMessage id={submitting ? 'signin.submitting' : 'signin.submit'} />
        </Button>
        <AuthSwitch questionId="signin.noAccount" linkId="signin.toSignup" href="/signup" />
      </form>
    </AuthLayout>
  );
}
