import { Fragment, useEffect, useId, useImperativeHandle, useMemo, useRef, useState, type KeyboardEvent, type Ref } from 'react';
import { errorMessage } from '@/api/errors';
import { formatDuration } from '@/lib/format';
import { useGetAudioLinkQuery, useGetTranscriptSegmentsQuery, type TimedSegment } from './playerApi';
import { activeCueIndex, cuesOf, isTyping } from './playerRules';

/** Seconds the arrow keys skip. */
export const SKIP_SECONDS = 5;

/** What the rest of the item's detail may do with its player (a review range seeks it). */
export interface PlayerControls {
  /** Plays the recording from `seconds`. */
  seek: (seconds: number) => void;
}

/**
 * The player of an AUDIO item: its recording (by a signed link, since `<audio>` sends no bearer
 * header) and the transcript, with the word (or segment, when the transcript has no word times)
 * being spoken highlighted. A word or a segment's time seeks there; `startAt` (a search hit's
 * time) is where playback begins. Space plays or pauses and the arrows skip 5 s while focus is in
 * the player, never while typing in a field.
 */
export function ItemPlayer({
  itemId,
  title,
  startAt,
  ref,
}: {
  itemId: string;
  title: string;
  startAt?: number | null;
  ref?: Ref<PlayerControls>;
}) {
  const headingId = useId();
  const { data: link, error: linkError, refetch } = useGetAudioLinkQuery(itemId);
  const { audioRef, time, setTime, seek, onKeyDown } = usePlayerAudio(ref);
  const retried = useRef(false);

  return (
    // The shortcuts listen on the whole player (recording and transcript), so they work wherever focus is inside it.
    <section className="item-player" aria-labelledby={headingId} onKeyDown={onKeyDown} data-testid="item-player">
      <h3 id={headingId} className="group-title">
        Listen
      </h3>
      {linkError ? (
        <p className="row-error" role="alert">
          {errorMessage(linkError, 'The recording could not be loaded.')}
        </p>
      ) : (
        <audio
          ref={audioRef}
          className="item-player-audio"
          controls
          preload="metadata"
          src={link?.url}
          aria-label={`Recording of ${title}`}
          onTimeUpdate={(event) => setTime(event.currentTarget.currentTime)}
          onSeeked={(event) => setTime(event.currentTarget.currentTime)}
          onLoadedMetadata={() => {
            if (startAt != null && startAt > 0) seek(startAt, false);
          }}
          onError={() => {
            // The link may have expired during a long session: ask for a new one, once.
            if (!retried.current) {
              retried.current = true;
              void refetch();
            }
          }}
        />
      )}
      <p className="muted item-player-hint">Space plays or pauses, the arrow keys skip {SKIP_SECONDS} seconds. Select a word to jump there.</p>
      <PlayerTranscript itemId={itemId} title={title} time={time} onSeek={(seconds) => seek(seconds)} />
    </section>
  );
}

/**
 * The `<audio>` element's time, seeking it (clamped to the recording, playing unless told not
 * to), the player's keyboard shortcuts, and the seek the rest of the detail is handed by `ref`.
 */
function usePlayerAudio(ref: Ref<PlayerControls> | undefined) {
  const audioRef = useRef<HTMLAudioElement>(null);
  const [time, setTime] = useState(0);

  function seek(seconds: number, play = true) {
    const audio = audioRef.current;
    if (!audio) return;
    const end = Number.isFinite(audio.duration) ? audio.duration : Infinity;
    audio.currentTime = Math.min(Math.max(0, seconds), end);
    setTime(audio.currentTime);
    if (play) void audio.play()?.catch(() => undefined);
  }

  useImperativeHandle(ref, () => ({ seek: (seconds: number) => seek(seconds) }));

  function onKeyDown(event: KeyboardEvent<HTMLElement>) {
    const audio = audioRef.current;
    // The native controls handle their own keys; fields keep theirs.
    if (!audio || event.target === audio || isTyping(event.target) || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === ' ' || event.key === 'Spacebar') {
      event.preventDefault();
      if (audio.paused) void audio.play()?.catch(() => undefined);
      else audio.pause();
    } else if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') {
      event.preventDefault();
      seek(audio.currentTime + (event.key === 'ArrowLeft' ? -SKIP_SECONDS : SKIP_SECONDS), !audio.paused);
    }
  }

  return { audioRef, time, setTime, seek, onKeyDown };
}

/** The timed transcript, with the cue spoken at `time` highlighted. */
function PlayerTranscript({ itemId, title, time, onSeek }: { itemId: string; title: string; time: number; onSeek: (seconds: number) => void }) {
  const { data: segments = [], error: segmentsError, isLoading: segmentsLoading } = useGetTranscriptSegmentsQuery(itemId);
  const cues = useMemo(() => cuesOf(segments), [segments]);
  const active = cues[activeCueIndex(cues, time)];

  if (segmentsLoading) {
    return (
      <p className="muted" role="status">
        Loading the transcript...
      </p>
    );
  }
  if (segmentsError) {
    return (
      <p className="row-error" role="alert">
        {errorMessage(segmentsError, 'The timed transcript could not be loaded.')}
      </p>
    );
  }
  if (segments.length === 0) return <p className="muted">This recording has no timed transcript.</p>;
  return (
    <ol className="player-transcript" aria-label={`Transcript of ${title}`}>
      {segments.map((segment, index) => (
        <SegmentLine
          key={`${segment.startMs}-${index}`}
          segment={segment}
          active={active?.segment === index}
          activeWord={active?.segment === index ? active.word : -1}
          onSeek={onSeek}
        />
      ))}
    </ol>
  );
}

function SegmentLine({
  segment,
  active,
  activeWord,
  onSeek,
}: {
  segment: TimedSegment;
  active: boolean;
  activeWord: number;
  onSeek: (seconds: number) => void;
}) {
  const ref = useRef<HTMLLIElement>(null);
  useEffect(() => {
    // Follow the speech without moving focus: only the scroll position changes.
    if (active) ref.current?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' });
  }, [active]);
  const start = segment.startMs / 1000;
  return (
    <li ref={ref} className={`player-segment${active ? ' active' : ''}`} aria-current={active ? 'true' : undefined}>
      <button type="button" className="player-time tabular" aria-label={`Play from ${formatDuration(start)}`} onClick={() => onSeek(start)}>
        {formatDuration(start)}
      </button>
      <span className="player-text">
        {segment.words.length === 0
          ? segment.text
          : segment.words.map((word, index) => (
              // Words are many: out of the tab order (the segment's time button is the keyboard's way in), but clickable.
              // A real space between them, so the text reads and copies as a sentence.
              <Fragment key={`${word.startMs}-${index}`}>
                {index > 0 && ' '}
                <button
                  type="button"
                  tabIndex={-1}
                  className={`player-word${index === activeWord ? ' active' : ''}`}
                  aria-current={index === activeWord ? 'true' : undefined}
                  data-start-ms={word.startMs}
                  onClick={() => onSeek(word.startMs / 1000)}
                >
                  {word.text.trim()}
                </button>
              </Fragment>
            ))}
      </span>
    </li>
  );
}
