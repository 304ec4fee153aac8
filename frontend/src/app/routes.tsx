import { lazy } from 'react';
import { Navigate, type RouteObject } from 'react-router';
import { paths } from '@/config/paths';
import { AccountSettings } from '@/features/auth/AccountSettings';
import AuthPage from '@/features/auth/AuthPage';
import { RedirectIfSignedIn, RequireAuth } from '@/features/auth/RouteGuards';
import { AppShell } from './AppShell';

// Route-level code splitting: each screen is its own chunk.
const BulkUploadPage = lazy(() => import(/* webpackChunkName: "uploads" */ '@/features/uploads/BulkUploadPage'));
const CreateTranscriptsPage = lazy(
  () => import(/* webpackChunkName: "transcripts" */ '@/features/transcripts/CreateTranscriptsPage'),
);
const VaultPage = lazy(() => import(/* webpackChunkName: "vault" */ '@/features/library/VaultPage'));
const FindVideosPage = lazy(() => import(/* webpackChunkName: "discovery" */ '@/features/discovery/FindVideosPage'));
const SourcesPage = lazy(() => import(/* webpackChunkName: "sources" */ '@/features/discovery/SourcesPage'));
const DownloadsPage = lazy(() => import(/* webpackChunkName: "downloads" */ '@/features/downloads/DownloadsPage'));
const ConvertPage = lazy(() => import(/* webpackChunkName: "convert" */ '@/features/conversion/ConvertPage'));
const SettingsPage = lazy(() => import(/* webpackChunkName: "settings" */ '@/features/settings/SettingsPage'));
// Only admins open it: its own chunk.
const UsersAdmin = lazy(() => import(/* webpackChunkName: "admin" */ '@/features/admin/UsersAdmin'));

export const appRoutes: RouteObject[] = [
  {
    element: <RedirectIfSignedIn />,
    children: [
      { path: paths.signIn, element: <AuthPage kind="sign-in" /> },
      { path: paths.signUp, element: <AuthPage kind="sign-up" /> },
    ],
  },
  {
    element: <RequireAuth />,
    children: [
      {
        element: <AppShell />,
        children: [
          { index: true, element: <FindVideosPage /> },
          { path: paths.discovery, element: <FindVideosPage /> },
          { path: paths.uploads, element: <BulkUploadPage /> },
          { path: paths.transcripts, element: <CreateTranscriptsPage /> },
          { path: paths.vault, element: <VaultPage /> },
          { path: paths.convertPdf, element: <ConvertPage /> },
          // The Account tab belongs to the auth feature and the Users tab to the admin feature; the
          // settings feature only places them (and shows Users to admins only).
          { path: paths.settings, element: <SettingsPage account={<AccountSettings />} users={<UsersAdmin />} /> },
          { path: paths.sources, element: <SourcesPage /> },
          { path: paths.downloads, element: <DownloadsPage /> },
        ],
      },
    ],
  },
  { path: '*', element: <Navigate to={paths.home} replace /> },
];
