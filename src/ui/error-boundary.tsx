import { Component, type ReactNode } from 'react';
import { ServerErrorPage } from './pages/errors/error-page';

/** A render crash shows the 500 page instead of a blank screen. */
export class ErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  componentDidCatch(error: unknown) {
    console.error(error);
  }

  render() {
    return this.state.failed ? <ServerErrorPage /> : this.props.children;
  }
}
