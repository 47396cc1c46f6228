import { Spinner } from '../components/loader';

/** Shown while a lazy page loads: a progress bar along the top and a loader in the page. */
export function PageLoading() {
  return (
    <div role="status" data-testid="page-loading" aria-busy="true">
      <div className="fixed inset-x-0 top-0 z-[70] h-0.5 overflow-hidden bg-primary/20">
        <div className="h-full w-1/3 animate-[progress_1s_ease-in-out_infinite] bg-primary" />
      </div>
      <div className="flex justify-center py-16">
        <Spinner className="h-8 w-8" />
      </div>
    </div>
  );
}
