import { QueryErrorResetBoundary } from '@tanstack/react-query';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { reportError } from '../boot/report';
import { retryFailedPages } from '../lib/lazy-page';
import { isUnreachable } from '../lib/unreachable';
import { ContentError } from '../pages/errors/error-page';

class Boundary extends Component<{ children: ReactNode; resetKey: string; onReset: () => void }, { error: unknown; key: string; failed: boolean }> {
  state = { error: null as unknown, key: this.props.resetKey, failed: false };

  static getDerivedStateFromError(error: unknown) {
    return { error, failed: true };
  }

  /** Another address: the error belonged to the page left behind. */
  static getDerivedStateFromProps(props: { resetKey: string }, state: { key: string }) {
    return props.resetKey === state.key ? null : { error: null, failed: false, key: props.resetKey };
  }

  componentDidCatch(error: unknown, info: ErrorInfo) {
    if (isUnreachable(error)) return;
    console.error(error);
    reportError(error, { componentStack: info.componentStack });
  }

  retry = () => {
    retryFailedPages();
    this.props.onReset();
    this.setState({ error: null, failed: false });
  };

  render() {
    return this.state.failed ? <ContentError error={this.state.error} onRetry={this.retry} /> : this.props.children;
  }
}

/** Catches what the page throws (a chunk that did not load, a query that could not reach the server), below the shell. */
export function ContentBoundary({ resetKey, children }: { resetKey: string; children: ReactNode }) {
  return (
    <QueryErrorResetBoundary>
      {({ reset }) => (
        <Boundary resetKey={resetKey} onReset={reset}>
          {children}
        </Boundary>
      )}
    </QueryErrorResetBoundary>
  );
}
