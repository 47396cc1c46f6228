import { useActorRef, useSelector } from '@xstate/react';
import { FormattedMessage } from 'react-intl';
import { fromPromise } from 'xstate';
import { AUTH_ERRORS } from '../../../protocol/auth';
import { signUpMachine, type SignUpField } from '../../../machines/sign-up.machine';
import { useRuntime } from '../../app-context';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { Field } from '../../components/field';
import { Link } from 'wouter';
import { Input } from '../../components/input';
import { PasswordInput } from '../../components/password-input';
import { AuthLayout, AuthSwitch } from './auth-layout';

const TEXT_FIELDS: { field: Exclude<SignUpField, 'password' | 'confirm'>; type: string; autoComplete: string; inputMode?: 'numeric' }[] = [
  { field: 'username', type: 'text', autoComplete: 'username' },
  { field: 'playerid', type: 'text', autoComplete: 'off', inputMode: 'numeric' },
  { field: 'email', type: 'email', autoComplete: 'email' },
];

/** The server's sign-up refusals, shown in the reader's language (any other text as the server sent it). */
const SERVER_TEXTS: Record<string, string> = {
  [AUTH_ERRORS.emailTaken]: 'signup.emailTaken',
  [AUTH_ERRORS.usernameTaken]: 'signup.usernameTaken',
  [AUTH_ERRORS.usernameCharacters]: 'signup.usernameCharacters',
  [AUTH_ERRORS.usernameDigits]: 'signup.usernameDigits',
  [AUTH_ERRORS.usernameReserved]: 'signup.usernameReserved',
  [AUTH_ERRORS.playerIdTaken]: 'signup.playeridTaken',
};

export default function SignUpPage() {
  const { api } = useRuntime();
  const signUp = useActorRef(signUpMachine.provide({ actors: { register: fromPromise(({ input }) => api.register(input)) } }));
  const { values, errors, serverError } = useSelector(signUp, (s) => s.context);
  const state = useSelector(signUp, (s) => s.value);
  const change = (field: SignUpField, value: string) => signUp.send({ type: 'CHANGE', field, value });

  return (
    <AuthLayout titleId="signup.title" subtitleId="signup.subtitle">
      <form
        noValidate
        className="grid gap-4"
        onSubmit={(e) => {
          e.preventDefault();
          signUp.send({ type: 'SUBMIT' });
        }}
      >
        {state === 'success' && (
          <Alert variant="success">
            <FormattedMessage id="signup.success" />
            <div className="mt-2 flex flex-wrap items-center gap-3">
              <span className="text-foreground/80">
                <FormattedMessage id="signup.nextStep" />
              </span>
              <Button asChild size="sm">
                <Link href="/signin">
                  <FormattedMessage id="signup.toSignin" />
                </Link>
              </Button>
            </div>
          </Alert>
        )}
        {state === 'error' && (
          <Alert variant="error">
            <FormattedMessage id="signup.error" />
            {serverError && (
              <div className="mt-1 text-foreground/80">{SERVER_TEXTS[serverError] ? <FormattedMessage id={SERVER_TEXTS[serverError]} /> : serverError}</div>
            )}
          </Alert>
        )}
        {TEXT_FIELDS.map(({ field, type, autoComplete, inputMode }) => (
          <Field key={field} id={field} labelId={`signup.${field}`} errorId={errors[field]}>
            <Input
              type={type}
              autoComplete={autoComplete}
              inputMode={inputMode}
              value={values[field]}
              onChange={(e) => change(field, e.target.value)}
            />
          </Field>
        ))}
        <Field id="password" labelId="signup.password" errorId={errors.password}>
          <PasswordInput
            strength
            autoComplete="new-password"
            value={values.password}
            onChange={(e) => change('password', e.target.value)}
          />
        </Field>
        <Field id="confirm" labelId="signup.confirm" errorId={errors.confirm}>
          <PasswordInput
            autoComplete="new-password"
            value={values.confirm}
            onChange={(e) => change('confirm', e.target.value)}
          />
        </Field>
        <Button type="submit" size="lg" disabled={state === 'submitting'}>
          <FormattedMessage id="signup.submit" />
        </Button>
        <AuthSwitch questionId="signup.haveAccount" linkId="signup.toSignin" href="/signin" />
      </form>
    </AuthLayout>
  );
}
