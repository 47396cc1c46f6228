import { Component, type ErrorInfo, type ReactNode } from 'react';
import { reportError } from './boot/report';
import { retryFailedPages } from './lib/lazy-page';
import { isUnreachable } from './lib/unreachable';
import { ContentError, ServerErrorPage } from './pages/errors/error-page';

/**
 * A render crash shows the 500 page instead of a blank screen. Code that could not be fetched (the
 * server out of reach before the shell itself loaded) shows Disconnected and a Retry instead; inside
 * the shell, the content area's own boundary catches it first and the shell stays.
 */
export class ErrorBoundary extends Component<{ children: ReactNode }, { error: unknown; failed: boolean }> {
  state = { error: null as unknown, failed: false };

  static getDerivedStateFromError(error: unknown) {
    return { error, failed: true };
  }

  componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error(error);
    // code that could not be fetched is the network's, not a bug: only real crashes are reported
    if (!isUnreachable(error)) reportError(error, { componentStack: info.componentStack });
  }

  retry = () => {
    retryFailedPages();
    this.setState({ error: null, failed: false });
  };

  render() {
    if (!this.state.failed) return this.props.children;
    if (isUnreachable(this.state.error)) {
      return <ContentError error={this.state.error} onRetry={this.retry} />;
    }
    return <ServerErrorPage />;
  }
}
