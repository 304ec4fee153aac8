import { CalendarDays, HardDrive, Library, Star } from 'lucide-react';
import { useEffect, type ReactNode } from 'react';
import { formatDuration, formatFileSize } from '@/lib/format';
import { useGetLibraryStatsQuery } from './libraryApi';

/**
 * The stats cards. 'This Week' shows the stats' thisMonth value, as the spec says (§2). A failed
 * stats call is only logged (§8): the cards show dashes.
 */
export function VaultStats() {
  const { data: stats, error } = useGetLibraryStatsQuery();

  useEffect(() => {
    if (error) console.warn('library stats could not be loaded', error);
  }, [error]);

  const dash = '—';
  const exported = stats?.export?.totalExported;
  return (
    <section className="stats-grid vault-stats" aria-label="Vault statistics">
      <StatCard
        label="Total Transcripts"
        value={stats ? String(stats.totalTranscripts) : dash}
        note={stats?.totalDuration ? `${formatDuration(stats.totalDuration)} of audio` : undefined}
        icon={<Library size={20} />}
        tone="info"
      />
      <StatCard label="This Week" value={stats ? String(stats.thisMonth) : dash} icon={<CalendarDays size={20} />} tone="success" />
      <StatCard
        label="Average Rating"
        value={stats ? (stats.avgRating ? stats.avgRating.toFixed(1) : dash) : dash}
        note={stats?.export ? `${stats.export.topRatedCount} top rated` : undefined}
        icon={<Star size={20} />}
        tone="warning"
      />
      <StatCard
        label="Storage Used"
        value={stats ? formatFileSize(stats.storageUsed) : dash}
        note={exported !== undefined ? `${exported} downloaded` : undefined}
        icon={<HardDrive size={20} />}
        tone="neutral"
      />
    </section>
  );
}

function StatCard({ label, value, note, icon, tone }: { label: string; value: string; note?: string; icon: ReactNode; tone: string }) {
  return (
    <div className={`stat-card tone-${tone}`} data-testid={`stat-${label.toLowerCase().replace(/\s+/g, '-')}`}>
      <span className="stat-icon" aria-hidden="true">
        {icon}
      </span>
      <div className="stat-body">
        <p className="stat-label">{label}</p>
        <p className="stat-value">{value}</p>
        {note && <p className="stat-note">{note}</p>}
      </div>
    </div>
  );
}
