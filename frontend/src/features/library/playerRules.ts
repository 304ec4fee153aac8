import type { TimedSegment } from './playerApi';

/** Where each clickable unit starts: every word when the transcript has word times, else each segment. */
export interface Cue {
  /** Start, in seconds. */
  start: number;
  segment: number;
  /** Index of the word in its segment, or -1 for a whole segment. */
  word: number;
}

/** The cues of a transcript in time order. */
export function cuesOf(segments: TimedSegment[]): Cue[] {
  const cues: Cue[] = [];
  segments.forEach((segment, index) => {
    if (segment.words.length > 0) segment.words.forEach((word, wordIndex) => cues.push({ start: word.startMs / 1000, segment: index, word: wordIndex }));
    else cues.push({ start: segment.startMs / 1000, segment: index, word: -1 });
  });
  return cues.sort((a, b) => a.start - b.start);
}

/** The cue being spoken at `time` (seconds): the last one that started, by binary search; -1 before the first. */
export function activeCueIndex(cues: Cue[], time: number): number {
  let low = 0;
  let high = cues.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (cues[middle].start <= time) {
      found = middle;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return found;
}

/** Whether a key press belongs to a text field (never taken over by the player's shortcuts). */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag !== 'INPUT') return false;
  const type = (target as HTMLInputElement).type;
  return !['button', 'checkbox', 'radio', 'range', 'submit', 'reset'].includes(type);
}
