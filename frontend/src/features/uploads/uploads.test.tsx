import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { delay, http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/testing/renderWithProviders';
import type { Schema } from '@/api/types';
import { errorResponse, server } from '@/testing/server';

/** An upload's answer (`POST /api/video-mp3/upload[/{videoId}]`). */
function uploaded(mp3Path: string, title: string, size: number, videoId = ''): Schema<'Envelope_UploadView'> {
  return { data: { mp3Path, mp3FilePath: mp3Path, title, size, videoId, deduplicated: false } };
}

function mp3(name: string, size = 1024) {
  return new File([new Uint8Array(Math.min(size, 2048))], name, { type: 'audio/mpeg' });
}

function withSize(file: File, size: number) {
  Object.defineProperty(file, 'size', { value: size });
  return file;
}

function dropFiles(files: File[]) {
  fireEvent.drop(screen.getByTestId('dropzone'), { dataTransfer: { files, types: ['Files'] } });
}

async function renderUploads() {
  const view = renderWithProviders({ route: '/download-mp3', userOptions: { applyAccept: false } });
  await screen.findByRole('heading', { name: 'Bulk Upload MP3 Files' });
  return view;
}

const rows = () => screen.queryAllByTestId('upload-row');
const rowFor = (title: string) => rows().find((row) => within(row).queryByText(title))!;

function uploadHandler(onRequest?: (form: FormData) => Promise<void> | void) {
  return http.post('/api/video-mp3/upload', async ({ request }) => {
    const form = await request.formData();
    await onRequest?.(form);
    // jsdom's XMLHttpRequest does not pass the part's file name on, so the path is built from the title.
    const file = form.get('mp3') as File;
    const title = form.get('title') as string;
    return HttpResponse.json<Schema<'Envelope_UploadView'>>(uploaded(`uploads/${title}.mp3`, title, file.size));
  });
}

describe('/download-mp3 selection', () => {
  it('starts empty with the drop zone and an empty table', async () => {
    await renderUploads();
    expect(screen.getByText('Drag and drop MP3 files here')).toBeInTheDocument();
    expect(screen.getByText(/No files selected yet/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Create Transcripts from MP3s/ })).toBeDisabled();
  });

  it('adds picked MP3s with their title (name without .mp3) and size', async () => {
    const { user } = await renderUploads();
    await user.upload(screen.getByLabelText('Choose MP3 files'), [mp3('First Talk.mp3', 500), withSize(mp3('Second.MP3'), 2048)]);
    expect(rows()).toHaveLength(2);
    expect(within(rowFor('First Talk')).getByText('500 Bytes')).toBeInTheDocument();
    expect(within(rowFor('Second')).getByText('2 KB')).toBeInTheDocument();
    expect(within(rowFor('First Talk')).getByText('Pending')).toBeInTheDocument();
  });

  it('shows sizes in Bytes, KB, MB and GB', async () => {
    await renderUploads();
    dropFiles([
      withSize(mp3('a.mp3'), 900),
      withSize(mp3('b.mp3'), 1536),
      withSize(mp3('c.mp3'), 5.5 * 1024 * 1024),
      withSize(mp3('d.mp3'), 1.5 * 1024 ** 3),
    ]);
    expect(within(rowFor('a')).getByText('900 Bytes')).toBeInTheDocument();
    expect(within(rowFor('b')).getByText('1.5 KB')).toBeInTheDocument();
    expect(within(rowFor('c')).getByText('5.5 MB')).toBeInTheDocument();
    expect(within(rowFor('d')).getByText('1.5 GB')).toBeInTheDocument();
  });

  it('accepts MP3 only: rejects other files with the message and keeps the MP3s', async () => {
    await renderUploads();
    dropFiles([mp3('song.mp3'), new File(['x'], 'notes.txt', { type: 'text/plain' })]);
    expect(screen.getByRole('alert')).toHaveTextContent('Please select MP3 files only');
    expect(rows()).toHaveLength(1);
  });

  it('recognises an MP3 by its name when the type is missing', async () => {
    await renderUploads();
    dropFiles([new File(['x'], 'voice.mp3', { type: '' })]);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(rows()).toHaveLength(1);
  });

  it('allows at most 100 files per selection', async () => {
    const { user } = await renderUploads();
    const many = Array.from({ length: 101 }, (_, index) => mp3(`track-${index}.mp3`, 10));
    dropFiles(many);
    expect(screen.getByRole('alert')).toHaveTextContent('Maximum 100 files allowed at once');
    expect(rows()).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Dismiss message' }));
    dropFiles(many.slice(0, 100));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(rows()).toHaveLength(100);
  });

  it('says so when there is nothing to upload', async () => {
    const { user } = await renderUploads();
    await user.click(screen.getByRole('button', { name: /Upload All/ }));
    expect(screen.getByRole('alert')).toHaveTextContent('No MP3 files to upload');
  });

  it('removes a pending file', async () => {
    const { user } = await renderUploads();
    dropFiles([mp3('keep.mp3'), mp3('drop.mp3')]);
    await user.click(screen.getByRole('button', { name: 'Remove drop' }));
    expect(rows()).toHaveLength(1);
    expect(screen.queryByText('drop')).not.toBeInTheDocument();
  });
});

describe('/download-mp3 uploading', () => {
  it('uploads each file as multipart mp3 + title and marks it completed', async () => {
    const seen: Array<{ title: FormDataEntryValue | null; size: number }> = [];
    server.use(uploadHandler((form) => void seen.push({ title: form.get('title'), size: (form.get('mp3') as File).size })));
    const { user } = await renderUploads();
    dropFiles([mp3('Episode 1.mp3'), mp3('Episode 2.mp3')]);
    await user.click(screen.getByRole('button', { name: 'Upload All (2)' }));
    await waitFor(() => expect(within(rowFor('Episode 2')).getByText('Completed')).toBeInTheDocument());
    expect(within(rowFor('Episode 1')).getByText('Completed')).toBeInTheDocument();
    expect(within(rowFor('Episode 1')).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
    expect(seen).toEqual(
      expect.arrayContaining([
        { title: 'Episode 1', size: 1024 },
        { title: 'Episode 2', size: 1024 },
      ]),
    );
    expect(await screen.findByText('2 files uploaded.')).toBeInTheDocument();
    expect(screen.getByText('2 of 2 uploaded')).toBeInTheDocument();
  });

  it('uploads in batches of 5 in parallel', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const events: string[] = [];
    server.use(
      uploadHandler(async (form) => {
        const title = form.get('title') as string;
        inFlight += 1;
        maxInFlight = Math.max(maxInFlight, inFlight);
        events.push(`start ${title}`);
        await delay(30);
        events.push(`end ${title}`);
        inFlight -= 1;
      }),
    );
    const { user } = await renderUploads();
    dropFiles(Array.from({ length: 7 }, (_, index) => mp3(`t${index}.mp3`)));
    await user.click(screen.getByRole('button', { name: 'Upload All (7)' }));
    await waitFor(() => expect(screen.getAllByText('Completed', { selector: '.badge' })).toHaveLength(7));
    expect(maxInFlight).toBe(5);
    const firstOfSecondBatch = events.findIndex((event) => event === 'start t5' || event === 'start t6');
    const endsOfFirstBatch = events.slice(0, firstOfSecondBatch).filter((event) => event.startsWith('end'));
    expect(endsOfFirstBatch).toHaveLength(5);
  });

  it('disables Remove while a file uploads', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    server.use(uploadHandler(() => gate));
    const { user } = await renderUploads();
    dropFiles([mp3('slow.mp3')]);
    await user.click(screen.getByRole('button', { name: 'Upload All (1)' }));
    expect(await within(rowFor('slow')).findByText('Uploading')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Remove slow' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Uploading...' })).toBeDisabled();
    act(() => release());
    await waitFor(() => expect(within(rowFor('slow')).getByText('Completed')).toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Remove slow' })).toBeEnabled();
  });
});

describe('/download-mp3 uploading: failures and the overall bar', () => {
  it("shows the server's message on a rejected file and 'Upload failed' without one", async () => {
    server.use(
      http.post('/api/video-mp3/upload', async ({ request }) => {
        const form = await request.formData();
        if (form.get('title') === 'broken-not-audio') {
          return errorResponse(400, 'Please select MP3 files only', 'BAD_REQUEST');
        }
        return new HttpResponse(null, { status: 413 });
      }),
    );
    const { user } = await renderUploads();
    dropFiles([mp3('broken-not-audio.mp3'), mp3('huge.mp3')]);
    await user.click(screen.getByRole('button', { name: 'Upload All (2)' }));
    await waitFor(() => expect(within(rowFor('huge')).getByText('Error')).toBeInTheDocument());
    expect(within(rowFor('broken-not-audio')).getByText('Please select MP3 files only')).toBeInTheDocument();
    expect(within(rowFor('huge')).getByText('Upload failed')).toBeInTheDocument();
    expect(await screen.findByText('Failed to upload files')).toBeInTheDocument();
    expect(screen.getByText('2 of 2 files could not be uploaded.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Create Transcripts from MP3s/ })).toBeDisabled();
  });

  it('fills the overall bar to 67 % in the danger tone for 2 uploaded + 1 failed of 3', async () => {
    server.use(
      http.post('/api/video-mp3/upload', async ({ request }) => {
        const form = await request.formData();
        const title = form.get('title') as string;
        if (title === 'broken') return errorResponse(400, 'Not audio');
        return HttpResponse.json<Schema<'Envelope_UploadView'>>(uploaded(`uploads/${title}.mp3`, title, 1));
      }),
    );
    const { user } = await renderUploads();
    dropFiles([mp3('one.mp3'), mp3('two.mp3'), mp3('broken.mp3')]);
    await user.click(screen.getByRole('button', { name: 'Upload All (3)' }));
    expect(await screen.findByText('1 of 3 files could not be uploaded.')).toBeInTheDocument();
    expect(screen.getByText('2 of 3 uploaded')).toBeInTheDocument();
    const overall = screen.getByRole('progressbar', { name: 'Overall upload progress' });
    expect(overall).toHaveAttribute('aria-valuenow', '67');
    expect(overall).toHaveClass('tone-danger');
    expect(overall.querySelector<HTMLElement>('.progress-indicator')!.style.transform).toBe('translateX(-33%)');
    expect(within(overall.parentElement!).getByText('67%')).toBeInTheDocument();
  });
});

describe('/download-mp3 uploading: real progress', () => {
  it('shows real upload progress from XMLHttpRequest progress events', async () => {
    const requests: FakeXhr[] = [];
    class FakeXhr {
      upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null };
      onload: (() => void) | null = null;
      onerror: (() => void) | null = null;
      onabort: (() => void) | null = null;
      status = 0;
      responseText = '';
      headers: Record<string, string> = {};
      url = '';
      open(_method: string, url: string) {
        this.url = url;
      }
      setRequestHeader(name: string, value: string) {
        this.headers[name] = value;
      }
      send() {
        requests.push(this);
      }
      abort() {}
      progress(loaded: number, total: number) {
        this.upload.onprogress?.({ lengthComputable: true, loaded, total } as ProgressEvent);
      }
      finish() {
        this.status = 201;
        this.responseText = JSON.stringify({ data: { mp3Path: 'uploads/x.mp3', title: 'x', size: 10 } });
        this.onload?.();
      }
    }
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const { user } = await renderUploads();
    dropFiles([mp3('x.mp3')]);
    await user.click(screen.getByRole('button', { name: 'Upload All (1)' }));
    await waitFor(() => expect(requests).toHaveLength(1));
    expect(requests[0].url).toBe('/api/video-mp3/upload');
    expect(requests[0].headers.Authorization).toMatch(/^Bearer /);
    act(() => requests[0].progress(40, 100));
    expect(within(rowFor('x')).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '40');
    expect(within(rowFor('x')).getByText('40%')).toBeInTheDocument();
    act(() => requests[0].progress(75, 100));
    expect(within(rowFor('x')).getByText('75%')).toBeInTheDocument();
    act(() => requests[0].finish());
    await waitFor(() => expect(within(rowFor('x')).getByText('Completed')).toBeInTheDocument());
    vi.unstubAllGlobals();
  });
});

describe('hand-off to /transcripts', () => {
  it('stores the uploaded files in sessionStorage mp3Files and opens Create Transcripts with them', async () => {
    server.use(uploadHandler());
    let storedDuringNavigation: unknown = null;
    const { user, router } = await renderUploads();
    dropFiles([mp3('Intro.mp3'), mp3('Outro.mp3')]);
    await user.click(screen.getByRole('button', { name: 'Upload All (2)' }));
    await waitFor(() => expect(screen.getAllByText('Completed', { selector: '.badge' })).toHaveLength(2));
    const unsubscribe = router.subscribe(() => {
      storedDuringNavigation ??= JSON.parse(window.sessionStorage.getItem('mp3Files') ?? 'null');
    });
    await user.click(screen.getByRole('button', { name: /Create Transcripts from MP3s/ }));
    unsubscribe();
    expect(storedDuringNavigation).toEqual([
      expect.objectContaining({ title: 'Intro', mp3Path: 'uploads/Intro.mp3' }),
      expect.objectContaining({ title: 'Outro', mp3Path: 'uploads/Outro.mp3' }),
    ]);
    expect(await screen.findByRole('heading', { name: 'Create Transcripts' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/transcripts');
    expect(await screen.findAllByTestId('transcription-row')).toHaveLength(2);
    expect(window.sessionStorage.getItem('mp3Files')).toBeNull();
  });
});

function statusHandler(statuses: Record<string, { hasMp3: boolean; mp3FilePath: string | null }> = {}) {
  return http.get('/api/video-mp3/status', () => HttpResponse.json<Schema<'Envelope_BTreeMap_String_Mp3StatusView'>>({ data: statuses }));
}

describe('videos selected on Find Videos', () => {
  it('attaches an MP3 to each selected video and uploads it to /upload/{videoId}', async () => {
    server.use(statusHandler());
    window.sessionStorage.setItem(
      'selectedVideos',
      JSON.stringify([
        { youtubeVideoId: 'vid-1', title: 'Channel intro', channelTitle: 'My Channel', duration: 95, publishedAt: '2024-01-05T00:00:00Z' },
      ]),
    );
    const fields: Record<string, FormDataEntryValue | null> = {};
    server.use(
      http.post('/api/video-mp3/upload/:videoId', async ({ request, params }) => {
        const form = await request.formData();
        for (const key of ['title', 'channelTitle', 'duration', 'publishedAt']) fields[key] = form.get(key);
        fields.videoId = params.videoId as string;
        return HttpResponse.json<Schema<'Envelope_UploadView'>>(uploaded('mp3/vid-1.mp3', 'Channel intro', 10, 'vid-1'));
      }),
    );
    const { user } = await renderUploads();
    const video = screen.getByTestId('selected-video');
    expect(within(video).getByText('My Channel · 1:35')).toBeInTheDocument();
    await user.upload(within(video).getByLabelText('Attach MP3 to Channel intro'), mp3('whatever.mp3'));
    expect(within(video).getByText('MP3 attached')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Upload All (1)' }));
    await waitFor(() => expect(within(rowFor('Channel intro')).getByText('Completed')).toBeInTheDocument());
    expect(fields).toEqual({
      videoId: 'vid-1',
      title: 'Channel intro',
      channelTitle: 'My Channel',
      duration: '95',
      publishedAt: '2024-01-05T00:00:00Z',
    });
  });

  it('rejects a non-MP3 attachment', async () => {
    server.use(statusHandler());
    window.sessionStorage.setItem('selectedVideos', JSON.stringify([{ youtubeVideoId: 'vid-1', title: 'Clip' }]));
    const { user } = await renderUploads();
    await user.upload(screen.getByLabelText('Attach MP3 to Clip'), new File(['x'], 'clip.wav', { type: 'audio/wav' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please select MP3 files only');
    expect(rows()).toHaveLength(0);
  });
});

describe('MP3 status of the selected videos', () => {
  const selection = [
    { youtubeVideoId: 'vid-1', title: 'Has one', channelTitle: 'My Channel', duration: 60, publishedAt: '2024-01-05T00:00:00Z' },
    { youtubeVideoId: 'vid-2', title: 'Needs one', channelTitle: 'My Channel', duration: 61, publishedAt: '2024-01-06T00:00:00Z' },
  ];

  it('marks the videos that already have an MP3 and offers Attach MP3 for the others', async () => {
    window.sessionStorage.setItem('selectedVideos', JSON.stringify(selection));
    server.use(statusHandler({ 'vid-1': { hasMp3: true, mp3FilePath: 'mp3/vid-1.mp3' } }));
    await renderUploads();
    const [first, second] = screen.getAllByTestId('selected-video');
    expect(await within(first).findByText('MP3 uploaded')).toBeInTheDocument();
    expect(within(first).queryByLabelText('Attach MP3 to Has one')).not.toBeInTheDocument();
    expect(within(second).getByLabelText('Attach MP3 to Needs one')).toBeInTheDocument();
  });

  it('shows MP3 uploaded once the attached file is uploaded, and asks the statuses again', async () => {
    window.sessionStorage.setItem('selectedVideos', JSON.stringify(selection));
    const statusCalls: string[] = [];
    server.use(
      http.get('/api/video-mp3/status', ({ request }) => {
        statusCalls.push(new URL(request.url).searchParams.get('videoIds') ?? '');
        return HttpResponse.json<Schema<'Envelope_BTreeMap_String_Mp3StatusView'>>({ data: {} });
      }),
      http.post('/api/video-mp3/upload/:videoId', ({ params }) =>
        HttpResponse.json<Schema<'Envelope_UploadView'>>(uploaded(`mp3/${params.videoId as string}.mp3`, 'Needs one', 10, params.videoId as string)),
      ),
    );
    const { user } = await renderUploads();
    await waitFor(() => expect(statusCalls).toEqual(['vid-1,vid-2']));
    const second = screen.getAllByTestId('selected-video')[1];
    await user.upload(within(second).getByLabelText('Attach MP3 to Needs one'), mp3('needs.mp3'));
    expect(within(second).getByText('MP3 attached')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Upload All (1)' }));
    expect(await within(second).findByText('MP3 uploaded')).toBeInTheDocument();
    await waitFor(() => expect(statusCalls).toHaveLength(2));
  });
});

describe('session end during uploads', () => {
  it('signs out when an upload answers 401', async () => {
    server.use(http.post('/api/video-mp3/upload', () => new HttpResponse(null, { status: 401 })));
    const { user, router } = await renderUploads();
    dropFiles([mp3('late.mp3')]);
    await user.click(screen.getByRole('button', { name: 'Upload All (1)' }));
    expect(await screen.findByRole('heading', { name: 'Sign in to Scribevault' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/sign-in');
    expect(window.localStorage.getItem('authUser')).toBeNull();
  });
});
