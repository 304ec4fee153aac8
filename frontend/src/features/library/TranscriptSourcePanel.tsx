import { AlertCircle, AudioLines, Captions, LoaderCircle, RotateCcw, Wand2 } from 'lucide-react';
import { errorMessage } from '@/api/errors';
import { useErrorToast } from '@/lib/toast';
import type { LibraryTranscript } from './libraryApi';
import {
  isCaptions,
  TRANSCRIPT_SOURCE_LABELS,
  useGetWhisperJobQuery,
  useTranscribeWithWhisperMutation,
  WHISPER_ERRORS,
  whisperFileOf,
  type WhisperFile,
} from './whisperApi';

/**
 * Where an AUDIO item's transcript came from, and for one made from YouTube's captions the
 * 'Transcribe with Whisper' action: it starts a Whisper run whose transcript replaces the
 * captions, then shows the run (waiting, its progress, or why it failed, with 'Try again')
 * until the new transcript arrives.
 */
export function TranscriptSourcePanel({ item }: { item: LibraryTranscript }) {
  const source = item.transcriptSource;
  if (!source) return null;
  const captions = isCaptions(source);
  return (
    <section className="transcript-source" aria-label="Transcript source" data-testid="transcript-source">
      <span className={`badge ${captions ? 'badge-info' : 'badge-neutral'}`} data-testid="transcript-source-badge">
        {captions ? <Captions size={14} aria-hidden="true" /> : <AudioLines size={14} aria-hidden="true" />}
        {TRANSCRIPT_SOURCE_LABELS[source]}
      </span>
      {captions &&
        (item.whisperJobId ? (
          <WhisperRunStatus itemId={item.id} jobId={item.whisperJobId} />
        ) : (
          <>
            <p className="muted transcript-source-hint">
              {source === 'captions:auto'
                ? 'Made from YouTube\u2019s speech recognition: no punctuation, and names may be misheard.'
                : 'Made from the captions the channel uploaded.'}
            </p>
            <StartWhisperButton itemId={item.id} label="Transcribe with Whisper" />
          </>
        ))}
    </section>
  );
}

function StartWhisperButton({ itemId, label }: { itemId: string; label: string }) {
  const showError = useErrorToast();
  const [start, { isLoading }] = useTranscribeWithWhisperMutation();
  async function onClick() {
    try {
      await start(itemId).unwrap();
    } catch (failure) {
      showError(failure, WHISPER_ERRORS.start);
    }
  }
  return (
    <button type="button" className="btn btn-sm btn-outline" disabled={isLoading} onClick={() => void onClick()}>
      {isLoading ? <LoaderCircle className="spin" size={14} aria-hidden="true" /> : label === 'Try again' ? <RotateCcw size={14} aria-hidden="true" /> : <Wand2 size={14} aria-hidden="true" />}
      {isLoading ? 'Starting...' : label}
    </button>
  );
}

/** The state of a file in words, for the status line. */
function describe(file: WhisperFile | undefined): { text: string; failed: boolean; percent: number | null } {
  switch (file?.status) {
    case 'transcribing':
      return { text: `Whisper is transcribing: ${file.progress}%`, failed: false, percent: file.progress };
    case 'completed':
      return { text: 'Whisper is done; the new transcript is on its way.', failed: false, percent: 100 };
    case 'retrying':
    case 'error':
      return { text: 'Whisper ran into a problem and will try again.', failed: false, percent: null };
    case 'failed':
      return { text: `Whisper failed: ${file.errorMessage || 'no reason given'}`, failed: true, percent: null };
    case 'scheduled':
      return { text: 'Whisper transcription scheduled.', failed: false, percent: null };
    default:
      return { text: 'Waiting for Whisper...', failed: false, percent: null };
  }
}

function WhisperRunStatus({ itemId, jobId }: { itemId: string; jobId: string }) {
  const { data: job, error, isLoading } = useGetWhisperJobQuery(jobId);
  if (error) {
    return (
      <p className="row-error" role="alert">
        <AlertCircle size={14} aria-hidden="true" /> {errorMessage(error, WHISPER_ERRORS.job)}
      </p>
    );
  }
  const state = describe(isLoading ? undefined : whisperFileOf(job));
  return (
    <div className="whisper-run" role="status" aria-live="polite">
      <p className={state.failed ? 'text-danger' : 'muted'}>
        {!state.failed && <LoaderCircle className="spin" size={14} aria-hidden="true" />} {state.text}
      </p>
      {state.percent !== null && (
        <progress className="whisper-progress" max={100} value={state.percent} aria-label="Whisper progress">
          {state.percent}%
        </progress>
      )}
      {state.failed && <StartWhisperButton itemId={itemId} label="Try again" />}
    </div>
  );
}
