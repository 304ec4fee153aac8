import { isMp3File } from '@/api/mp3Upload';

/**
 * The MP3 drop rules of Find Videos (docs/product-spec.md §5): only the first file of a drop counts, and it must
 * be an MP3 (type audio/mpeg or a name ending .mp3). Null when it is not.
 */
export function firstDroppedMp3(files: ArrayLike<File>): File | null {
  const first = files[0];
  return first && isMp3File(first) ? first : null;
}

/** The video a file dropped on the whole card goes to: the first listed without an MP3. */
export function firstVideoWithoutMp3<T>(videos: readonly T[], hasMp3: (video: T) => boolean): T | null {
  return videos.find((video) => !hasMp3(video)) ?? null;
}
