import { ComingSoonPage } from '@/components/ComingSoonPage';

/** '/' and /youtube-discovery: the find-videos screen (coming in a later issue). */
export default function FindVideosPage() {
  return <ComingSoonPage title="Find Videos" description="Find the videos of a YouTube channel and attach MP3s to them" />;
}
