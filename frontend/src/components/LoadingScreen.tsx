import { LoaderCircle } from 'lucide-react';

/** Full-area loading state; the text is the spec's 'Loading...'. */
export function LoadingScreen({ label = 'Loading...' }: { label?: string }) {
  return (
    <div className="loading-screen" role="status" aria-live="polite">
      <LoaderCircle className="spin" size={28} aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}
