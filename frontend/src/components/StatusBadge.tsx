export type BadgeTone = 'neutral' | 'info' | 'success' | 'danger' | 'warning';

export function StatusBadge({ tone, children }: { tone: BadgeTone; children: string }) {
  return <span className={`badge badge-${tone}`}>{children}</span>;
}
