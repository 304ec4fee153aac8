import { AlertCircle, RefreshCw } from 'lucide-react';

/** A list that could not be loaded and has nothing cached to show: the reason and a way to try again. */
export function LoadFailed({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <div className="empty-state compact" role="alert">
      <AlertCircle size={28} aria-hidden="true" className="text-danger" />
      <p className="text-danger">{message}</p>
      <button type="button" className="btn btn-outline" onClick={onRetry}>
        <RefreshCw size={16} aria-hidden="true" /> Try again
      </button>
    </div>
  );
}
