import { Sparkles } from 'lucide-react';
import { PageHeader } from './PageHeader';

/** A menu route whose screen is not built yet: its title and a short note, never a blank page. */
export function ComingSoonPage({ title, description }: { title: string; description?: string }) {
  return (
    <div className="page">
      <PageHeader title={title} description={description} />
      <section className="card empty-state">
        <span className="empty-icon" aria-hidden="true">
          <Sparkles size={28} />
        </span>
        <h2 className="empty-title">Coming soon</h2>
        <p className="muted">This screen is on its way. Meanwhile, upload MP3s and create transcripts from the menu.</p>
      </section>
    </div>
  );
}
