import { ErrorPage } from './error-page';

/** A route above the user's rank: shown in the shell instead of the page's forms. */
export function AccessDeniedPage() {
  return <ErrorPage code={403} textId="error.403" detailId="error.403.detail" />;
}
