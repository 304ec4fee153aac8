import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import type { Source } from '@/api/sourcesApi';
import { DEFAULT_USER_SETTINGS } from '@/api/userSettingsApi';
import { renderWithProviders } from '@/testing/renderWithProviders';
import type { Schema } from '@/api/types';
import { errorResponse, server } from '@/testing/server';
import type { Schedule } from './schedulesApi';

const SOURCES: Source[] = [
  { id: 'src-1', type: 'CHANNEL', title: 'Demo Channel', thumbnailUrl: 'https://img.example/demo.jpg', url: 'https://www.youtube.com/@demo', createdAt: '2026-01-01T00:00:00Z' },
  { id: 'src-2', type: 'PLAYLIST', title: 'Demo playlist', thumbnailUrl: '', url: 'https://www.youtube.com/playlist?list=PLdemo', createdAt: '2026-01-02T00:00:00Z' },
];

/** 9:00 AM on Mar 03, 2025 in the machine's time zone, as the server would send it. */
const NEXT_RUN = new Date(2025, 2, 3, 9, 0).toISOString();

function schedule(overrides: Partial<Schedule> = {}): Schedule {
  return {
    id: 'sch-1',
    sourceId: 'src-1',
    source: { type: 'CHANNEL', title: 'Demo Channel', thumbnailUrl: 'https://img.example/demo.jpg' },
    frequency: 'DAILY',
    timeOfDay: '09:00',
    timezone: 'Europe/Berlin',
    isActive: true,
    useCaptions: false,
    nextRunAt: NEXT_RUN,
    lastRunAt: null,
    createdAt: '2025-03-01T09:00:00Z',
    ...overrides,
  };
}

/** An in-memory /api/schedules (and /api/sources) that records every change. */
function schedulesBackend(initial: Schedule[] = []) {
  const state = {
    schedules: [...initial],
    created: [] as unknown[],
    patched: [] as Array<{ id: string; body: unknown }>,
    deleted: [] as string[],
    runs: [] as string[],
    newVideos: 3,
  };
  server.use(
    http.get('/api/sources', () => HttpResponse.json<Schema<'Envelope_Vec_SourceView'>>({ data: SOURCES })),
    http.get('/api/schedules', () => HttpResponse.json<Schema<'Envelope_Vec_ScheduleView'>>({ data: state.schedules })),
    http.post('/api/schedules', async ({ request }) => {
      const body = (await request.json()) as Pick<Schedule, 'sourceId' | 'frequency' | 'timeOfDay' | 'timezone' | 'useCaptions'>;
      state.created.push(body);
      const source = SOURCES.find((candidate) => candidate.id === body.sourceId)!;
      const created = schedule({
        id: `sch-new-${state.created.length}`,
        ...body,
        source: { type: source.type, title: source.title, thumbnailUrl: source.thumbnailUrl },
      });
      state.schedules.push(created);
      return HttpResponse.json<Schema<'Envelope_ScheduleView'>>({ data: created }, { status: 201 });
    }),
    http.patch('/api/schedules/:id', async ({ params, request }) => {
      const body = (await request.json()) as Partial<Schedule>;
      const id = params.id as string;
      state.patched.push({ id, body });
      state.schedules = state.schedules.map((candidate) =>
        candidate.id === id
          ? { ...candidate, ...body, nextRunAt: (body.isActive ?? candidate.isActive) ? NEXT_RUN : null }
          : candidate,
      );
      return HttpResponse.json<Schema<'Envelope_ScheduleView'>>({ data: state.schedules.find((candidate) => candidate.id === id)! });
    }),
    http.delete('/api/schedules/:id', ({ params }) => {
      state.deleted.push(params.id as string);
      state.schedules = state.schedules.filter((candidate) => candidate.id !== params.id);
      return new HttpResponse(null, { status: 204 });
    }),
    http.post('/api/schedules/:id/run', ({ params }) => {
      const id = params.id as string;
      state.runs.push(id);
      const lastRunAt = new Date().toISOString();
      state.schedules = state.schedules.map((candidate) => (candidate.id === id ? { ...candidate, lastRunAt } : candidate));
      return HttpResponse.json<Schema<'ScheduleRun'>>({ data: state.schedules.find((candidate) => candidate.id === id), meta: { newVideos: state.newVideos } });
    }),
  );
  return state;
}

/** Pretends the browser is in `timeZone` (what a new schedule defaults to). */
function browserTimeZoneIs(timeZone: string) {
  const original = Intl.DateTimeFormat.prototype.resolvedOptions;
  vi.spyOn(Intl.DateTimeFormat.prototype, 'resolvedOptions').mockImplementation(function (this: Intl.DateTimeFormat) {
    return { ...original.call(this), timeZone };
  });
}

async function renderSchedules() {
  const view = renderWithProviders({ route: '/settings?tab=schedules' });
  await screen.findByRole('heading', { name: 'Scheduled Syncs', level: 2 });
  return view;
}

const cards = () => screen.queryAllByTestId('schedule-card');
const cardOf = (title: string) => {
  const found = cards().find((card) => within(card).queryByRole('heading', { name: title }));
  if (!found) throw new Error(`no card for ${title}`);
  return found;
};
const section = (name: string) => screen.getByRole('region', { name: new RegExp(`^${name}`) });
const toastTexts = () => screen.queryAllByRole('status').map((toast) => toast.textContent ?? '');

async function chooseFromMenu(user: ReturnType<typeof renderWithProviders>['user'], title: string, item: string) {
  await user.click(screen.getByRole('button', { name: `Schedule options for ${title}` }));
  await user.click(await screen.findByRole('menuitem', { name: item }));
}

describe('/settings', () => {
  it('has five tabs, Preferences first and selected', async () => {
    const { user, router } = renderWithProviders({ route: '/settings' });
    expect(await screen.findByRole('heading', { name: 'Settings', level: 1 })).toBeInTheDocument();
    expect(screen.getByText('Manage your account, preferences, and scheduled syncs')).toBeInTheDocument();
    const tabs = screen.getAllByRole('tab');
    expect(tabs.map((tab) => tab.textContent)).toEqual(['Preferences', 'Scheduled Syncs', 'Webhooks', 'Podcast Feeds', 'Account']);
    expect(tabs[0]).toHaveAttribute('aria-selected', 'true');
    expect(await within(screen.getByRole('tabpanel', { name: 'Preferences' })).findByRole('region', { name: 'Appearance' })).toBeInTheDocument();

    schedulesBackend();
    await user.click(tabs[1]);
    expect(await screen.findByRole('tabpanel', { name: 'Scheduled Syncs' })).toBeInTheDocument();
    expect(router.state.location.search).toBe('?tab=schedules');
    // Arrow keys move between tabs.
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Webhooks' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tab', { name: 'Webhooks' })).toHaveFocus();
  });

  it("shows the signed-in user's email on Account and signs out from there", async () => {
    const { user, router } = renderWithProviders({ route: '/settings?tab=account' });
    const panel = await screen.findByRole('tabpanel', { name: 'Account' });
    expect(within(panel).getByText('ada@example.com')).toBeInTheDocument();
    await user.click(within(panel).getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/sign-in'));
    expect(window.localStorage.getItem('authUser')).toBeNull();
  });
});

describe('Scheduled Syncs', () => {
  it("shows 'No schedules yet' with 'Create Your First Schedule', which opens 'Create Schedule'", async () => {
    schedulesBackend();
    const { user } = await renderSchedules();
    expect(screen.getByText('Automatically sync new content from your sources')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'No schedules yet' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create Your First Schedule' }));
    expect(screen.getByRole('dialog', { name: 'Create Schedule' })).toBeInTheDocument();
  });

  it("creates a schedule with the defaults DAILY, 09:00 and the browser's time zone", async () => {
    browserTimeZoneIs('America/Chicago');
    const backend = schedulesBackend();
    const { user } = await renderSchedules();
    await screen.findByRole('heading', { name: 'No schedules yet' });
    await user.click(screen.getByRole('button', { name: 'Add Schedule' }));
    const dialog = screen.getByRole('dialog', { name: 'Create Schedule' });
    expect(within(dialog).getByLabelText('Frequency')).toHaveValue('DAILY');
    expect(within(dialog).getByLabelText('Time of day')).toHaveValue('09:00');
    expect(within(dialog).getByLabelText('Time zone')).toHaveValue('America/Chicago');
    expect(within(within(dialog).getByLabelText('Frequency')).getAllByRole('option').map((option) => option.textContent)).toEqual([
      'Daily',
      'Weekly',
      'Monthly',
    ]);

    const source = within(dialog).getByLabelText('Source');
    await waitFor(() => expect(within(source).getAllByRole('option')).toHaveLength(3));
    await user.selectOptions(source, 'Demo playlist');
    await user.click(within(dialog).getByRole('button', { name: 'Create Schedule' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(backend.created).toEqual([
      { sourceId: 'src-2', frequency: 'DAILY', timeOfDay: '09:00', timezone: 'America/Chicago', useCaptions: false },
    ]);
    await waitFor(() => expect(toastTexts()).toContainEqual(expect.stringContaining('Schedule created')));
    const card = await within(section('Active Schedules')).findByTestId('schedule-card');
    expect(within(card).getByRole('heading', { name: 'Demo playlist' })).toBeInTheDocument();
  });

  it("says 'Source is required' and 'Invalid time format', and sends nothing until both are right", async () => {
    const backend = schedulesBackend();
    const { user } = await renderSchedules();
    await user.click(screen.getByRole('button', { name: 'Add Schedule' }));
    const dialog = screen.getByRole('dialog', { name: 'Create Schedule' });
    const time = within(dialog).getByLabelText('Time of day');
    const submit = within(dialog).getByRole('button', { name: 'Create Schedule' });

    await user.clear(time);
    await user.type(time, '24:00');
    await user.click(submit);
    expect(within(dialog).getByText('Source is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Invalid time format')).toBeInTheDocument();
    expect(time).toHaveAttribute('aria-invalid', 'true');

    await waitFor(() => expect(within(within(dialog).getByLabelText('Source')).getAllByRole('option')).toHaveLength(3));
    await user.selectOptions(within(dialog).getByLabelText('Source'), 'Demo Channel');
    expect(within(dialog).queryByText('Source is required')).not.toBeInTheDocument();
    for (const wrong of ['12:60', '9', '09:5', 'ab:cd', '-1:00', '']) {
      await user.clear(time);
      if (wrong) await user.type(time, wrong);
      await user.click(submit);
      expect(within(dialog).getByText('Invalid time format')).toBeInTheDocument();
    }
    expect(backend.created).toEqual([]);

    await user.clear(time);
    await user.type(time, '7:05');
    await user.selectOptions(within(dialog).getByLabelText('Frequency'), 'Monthly');
    await user.selectOptions(within(dialog).getByLabelText('Time zone'), 'Asia/Tokyo');
    await user.click(submit);
    await waitFor(() => expect(backend.created).toHaveLength(1));
    expect(backend.created[0]).toEqual({ sourceId: 'src-1', frequency: 'MONTHLY', timeOfDay: '07:05', timezone: 'Asia/Tokyo', useCaptions: false });
  });
});

describe('Scheduled Syncs: the list and its actions', () => {
  it('lists schedules under Active and Inactive Schedules, each card with its source, badge, type, time, frequency, next and last run', async () => {
    schedulesBackend([
      schedule({ id: 'a', lastRunAt: new Date(Date.now() - 5 * 60_000 - 10_000).toISOString() }),
      schedule({
        id: 'b',
        sourceId: 'src-2',
        source: { type: 'PLAYLIST', title: 'Demo playlist', thumbnailUrl: '' },
        frequency: 'WEEKLY',
        timeOfDay: '18:30',
        timezone: 'UTC',
        isActive: false,
        nextRunAt: null,
      }),
    ]);
    await renderSchedules();
    await waitFor(() => expect(cards()).toHaveLength(2));
    expect(within(section('Active Schedules')).getAllByTestId('schedule-card')).toHaveLength(1);
    expect(within(section('Inactive Schedules')).getAllByTestId('schedule-card')).toHaveLength(1);

    const active = cardOf('Demo Channel');
    expect(active.querySelector('img')).toHaveAttribute('src', 'https://img.example/demo.jpg');
    expect(within(active).getByText('Active')).toHaveClass('badge-success');
    expect(within(active).getByText('Channel')).toBeInTheDocument();
    expect(within(active).getByText('Daily')).toBeInTheDocument();
    expect(within(active).getByText('09:00')).toBeInTheDocument();
    expect(within(active).getByText('Europe/Berlin')).toBeInTheDocument();
    expect(within(active).getByText('Mar 03, 2025 at 9:00 AM')).toBeInTheDocument();
    expect(within(active).getByText('5 minutes ago')).toBeInTheDocument();

    const inactive = cardOf('Demo playlist');
    expect(within(inactive).getByTestId('schedule-type-icon')).toBeInTheDocument();
    expect(within(inactive).getByText('Inactive')).toBeInTheDocument();
    expect(within(inactive).getByText('Playlist')).toBeInTheDocument();
    expect(within(inactive).getByText('Weekly')).toBeInTheDocument();
    expect(within(inactive).getByText('18:30')).toBeInTheDocument();
    expect(within(inactive).queryByText('Last run')).not.toBeInTheDocument();
    expect(within(inactive).getByText('Not scheduled')).toBeInTheDocument();
  });

  it("disables and enables a schedule from its menu ('Schedule disabled' / 'Schedule enabled')", async () => {
    const backend = schedulesBackend([schedule()]);
    const { user } = await renderSchedules();
    await waitFor(() => expect(cards()).toHaveLength(1));
    await chooseFromMenu(user, 'Demo Channel', 'Disable');
    await waitFor(() => expect(within(section('Inactive Schedules')).getAllByTestId('schedule-card')).toHaveLength(1));
    expect(backend.patched).toEqual([{ id: 'sch-1', body: { isActive: false } }]);
    await waitFor(() => expect(toastTexts()).toContainEqual(expect.stringContaining('Schedule disabled')));
    expect(screen.queryByRole('region', { name: /^Active Schedules/ })).not.toBeInTheDocument();

    await chooseFromMenu(user, 'Demo Channel', 'Enable');
    await waitFor(() => expect(within(section('Active Schedules')).getAllByTestId('schedule-card')).toHaveLength(1));
    expect(backend.patched[1]).toEqual({ id: 'sch-1', body: { isActive: true } });
    await waitFor(() => expect(toastTexts()).toContainEqual(expect.stringContaining('Schedule enabled')));
  });

  it("edits a schedule in 'Edit Schedule', sending only the changed fields ('Schedule updated')", async () => {
    const backend = schedulesBackend([schedule()]);
    const { user } = await renderSchedules();
    await waitFor(() => expect(cards()).toHaveLength(1));
    await chooseFromMenu(user, 'Demo Channel', 'Edit Schedule');
    const dialog = await screen.findByRole('dialog', { name: 'Edit Schedule' });
    expect(within(dialog).getByLabelText('Source')).toHaveValue('src-1');
    expect(within(dialog).getByLabelText('Source')).toBeDisabled();
    expect(within(dialog).getByLabelText('Time zone')).toHaveValue('Europe/Berlin');
    await user.selectOptions(within(dialog).getByLabelText('Frequency'), 'Weekly');
    const time = within(dialog).getByLabelText('Time of day');
    await user.clear(time);
    await user.type(time, '18:30');
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(backend.patched).toEqual([{ id: 'sch-1', body: { frequency: 'WEEKLY', timeOfDay: '18:30' } }]);
    await waitFor(() => expect(toastTexts()).toContainEqual(expect.stringContaining('Schedule updated')));
    expect(await within(cardOf('Demo Channel')).findByText('Weekly')).toBeInTheDocument();
    expect(within(cardOf('Demo Channel')).getByText('18:30')).toBeInTheDocument();
  });
});

describe('Scheduled Syncs: captions, delete and sync now', () => {
  it("starts a new schedule's 'Use YouTube captions when available' from the Settings default", async () => {
    browserTimeZoneIs('UTC');
    server.use(
      http.get('/api/user/settings', () =>
        HttpResponse.json<Schema<'Envelope_UserSettings'>>({ data: { ...DEFAULT_USER_SETTINGS, useCaptions: true } }),
      ),
    );
    const backend = schedulesBackend();
    const { user } = await renderSchedules();
    await user.click(screen.getByRole('button', { name: 'Add Schedule' }));
    const dialog = screen.getByRole('dialog', { name: 'Create Schedule' });
    expect(within(dialog).getByRole('checkbox', { name: 'Use YouTube captions when available' })).toBeChecked();
    await waitFor(() => expect(within(within(dialog).getByLabelText('Source')).getAllByRole('option')).toHaveLength(3));
    await user.selectOptions(within(dialog).getByLabelText('Source'), 'Demo Channel');
    await user.click(within(dialog).getByRole('button', { name: 'Create Schedule' }));
    await waitFor(() => expect(backend.created).toHaveLength(1));
    expect(backend.created[0]).toMatchObject({ sourceId: 'src-1', useCaptions: true });
  });

  it("edits a schedule's 'Use YouTube captions when available', sending that field alone", async () => {
    const backend = schedulesBackend([schedule()]);
    const { user } = await renderSchedules();
    await waitFor(() => expect(cards()).toHaveLength(1));
    await chooseFromMenu(user, 'Demo Channel', 'Edit Schedule');
    const dialog = await screen.findByRole('dialog', { name: 'Edit Schedule' });
    const captions = within(dialog).getByRole('checkbox', { name: 'Use YouTube captions when available' });
    expect(captions).not.toBeChecked();
    await user.click(captions);
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(backend.patched).toEqual([{ id: 'sch-1', body: { useCaptions: true } }]);
  });

  it("deletes a schedule after confirming ('Schedule deleted'); Cancel keeps it", async () => {
    const backend = schedulesBackend([schedule()]);
    const { user } = await renderSchedules();
    await waitFor(() => expect(cards()).toHaveLength(1));
    await chooseFromMenu(user, 'Demo Channel', 'Delete Schedule');
    let dialog = await screen.findByRole('dialog', { name: 'Delete schedule?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(backend.deleted).toEqual([]);

    await chooseFromMenu(user, 'Demo Channel', 'Delete Schedule');
    dialog = await screen.findByRole('dialog', { name: 'Delete schedule?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(cards()).toHaveLength(0));
    expect(backend.deleted).toEqual(['sch-1']);
    await waitFor(() => expect(toastTexts()).toContainEqual(expect.stringContaining('Schedule deleted')));
    expect(await screen.findByRole('heading', { name: 'No schedules yet' })).toBeInTheDocument();
  });

  it("syncs now: 'N new videos in {title}', or 'No new videos in {title}', and shows the last run", async () => {
    const backend = schedulesBackend([schedule()]);
    const { user } = await renderSchedules();
    await waitFor(() => expect(cards()).toHaveLength(1));
    await chooseFromMenu(user, 'Demo Channel', 'Sync now');
    await waitFor(() => expect(toastTexts()).toContainEqual(expect.stringContaining('3 new videos in Demo Channel')));
    expect(backend.runs).toEqual(['sch-1']);
    expect(await within(cardOf('Demo Channel')).findByText('just now')).toBeInTheDocument();

    backend.newVideos = 0;
    await chooseFromMenu(user, 'Demo Channel', 'Sync now');
    await waitFor(() => expect(toastTexts()).toContainEqual(expect.stringContaining('No new videos in Demo Channel')));
  });
});

describe('Scheduled Syncs errors (a destructive toast titled Error)', () => {
  const errorToast = async (message: string) => {
    await waitFor(() => {
      const toast = [...document.querySelectorAll('li.toast')].find((candidate) => candidate.textContent?.includes(message));
      expect(toast).toBeDefined();
      expect(toast).toHaveClass('toast-destructive');
      expect(toast!.querySelector('.toast-title')).toHaveTextContent(/^Error$/);
    }, { timeout: 5000 });
  };

  it("'Failed to fetch schedules', or the server's message", async () => {
    server.use(http.get('/api/schedules', () => new HttpResponse(null, { status: 500 })));
    const { user } = await renderSchedules();
    await errorToast('Failed to fetch schedules');
    server.use(http.get('/api/schedules', () => errorResponse(503, 'Schedules are resting')));
    await user.click(await screen.findByRole('button', { name: 'Try again' }));
    await errorToast('Schedules are resting');
  });

  it("'Failed to create schedule', or the server's message, keeping the dialog open", async () => {
    schedulesBackend();
    server.use(
      http.post('/api/schedules', () => errorResponse(400, 'Unknown time zone "Mars/Olympus"')),
    );
    const { user } = await renderSchedules();
    await user.click(screen.getByRole('button', { name: 'Add Schedule' }));
    const dialog = screen.getByRole('dialog', { name: 'Create Schedule' });
    await waitFor(() => expect(within(within(dialog).getByLabelText('Source')).getAllByRole('option')).toHaveLength(3));
    await user.selectOptions(within(dialog).getByLabelText('Source'), 'Demo Channel');
    await user.click(within(dialog).getByRole('button', { name: 'Create Schedule' }));
    await errorToast('Unknown time zone "Mars/Olympus"');
    expect(screen.getByRole('dialog', { name: 'Create Schedule' })).toBeInTheDocument();

    server.use(http.post('/api/schedules', () => new HttpResponse(null, { status: 500 })));
    await user.click(within(dialog).getByRole('button', { name: 'Create Schedule' }));
    await errorToast('Failed to create schedule');
  });

  it("'Failed to update schedule', 'Failed to toggle schedule', 'Failed to delete schedule'", async () => {
    schedulesBackend([schedule()]);
    server.use(
      http.patch('/api/schedules/:id', () => new HttpResponse(null, { status: 500 })),
      http.delete('/api/schedules/:id', () => new HttpResponse(null, { status: 500 })),
      http.post('/api/schedules/:id/run', () => errorResponse(404, 'Source not found')),
    );
    const { user } = await renderSchedules();
    await waitFor(() => expect(cards()).toHaveLength(1));

    await chooseFromMenu(user, 'Demo Channel', 'Edit Schedule');
    const dialog = await screen.findByRole('dialog', { name: 'Edit Schedule' });
    await user.selectOptions(within(dialog).getByLabelText('Frequency'), 'Monthly');
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    await errorToast('Failed to update schedule');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    await chooseFromMenu(user, 'Demo Channel', 'Disable');
    await errorToast('Failed to toggle schedule');
    expect(within(section('Active Schedules')).getAllByTestId('schedule-card')).toHaveLength(1);

    await chooseFromMenu(user, 'Demo Channel', 'Sync now');
    await errorToast('Source not found');

    await chooseFromMenu(user, 'Demo Channel', 'Delete Schedule');
    await user.click(within(await screen.findByRole('dialog', { name: 'Delete schedule?' })).getByRole('button', { name: 'Delete' }));
    await errorToast('Failed to delete schedule');
    expect(cards()).toHaveLength(1);
  });
});
