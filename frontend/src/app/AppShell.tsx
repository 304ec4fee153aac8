import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import {
  AudioLines,
  ChevronsUpDown,
  Database,
  Download,
  FileText,
  FileType2,
  Library,
  LogOut,
  Menu,
  Search,
  Settings,
  Upload,
  User,
  X,
  type LucideIcon,
} from 'lucide-react';
import { Suspense, useEffect, useRef, useState } from 'react';
import { Link, NavLink, Outlet } from 'react-router';
import { useUserSettings } from '@/api/userSettingsApi';
import { LoadingScreen } from '@/components/LoadingScreen';
import { paths } from '@/config/paths';
import { useAuthActions } from '@/features/auth/authActions';
import { selectCurrentUser } from '@/features/auth/authSlice';
import { ConnectionStatus } from '@/features/realtime/ConnectionStatus';
import { useRealtimeConnection } from '@/features/realtime/useRealtimeConnection';
import { lastThemeChoice, useTheme } from '@/lib/theme';
import { useAppSelector } from './hooks';

interface NavItem {
  to: string;
  label: string;
  icon: LucideIcon;
}

/**
 * The six menu links of the spec in its order, with Sources (which Find Videos searches feed) and
 * Downloads (the audio downloads of their videos) right after Find Videos.
 */
export const MAIN_NAV: NavItem[] = [
  { to: paths.discovery, label: 'Find Videos', icon: Search },
  { to: paths.sources, label: 'Sources', icon: Database },
  { to: paths.downloads, label: 'Downloads', icon: Download },
  { to: paths.uploads, label: 'Bulk Upload MP3s', icon: Upload },
  { to: paths.transcripts, label: 'Create Transcripts', icon: FileText },
  { to: paths.convertPdf, label: 'PDF to Markdown', icon: FileType2 },
  { to: paths.vault, label: 'Vault', icon: Library },
  { to: paths.settings, label: 'Settings', icon: Settings },
];

export function AppShell() {
  useRealtimeConnection();
  useUserSettingsApplied();
  const [menuOpen, setMenuOpen] = useState(false);
  const closeButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!menuOpen) return undefined;
    closeButton.current?.focus();
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setMenuOpen(false);
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [menuOpen]);

  return (
    <div className={`shell ${menuOpen ? 'menu-open' : ''}`}>
      <a className="skip-link" href="#main-content">
        Skip to content
      </a>
      <aside id="side-navigation" className="sidebar" aria-label="Main navigation">
        <div className="sidebar-header">
          <Link to={paths.home} className="brand" onClick={() => setMenuOpen(false)}>
            <span className="brand-mark" aria-hidden="true">
              <AudioLines size={20} />
            </span>
            <span className="brand-name">Scribevault</span>
          </Link>
          <button
            ref={closeButton}
            type="button"
            className="icon-button sidebar-close"
            aria-label="Close menu"
            onClick={() => setMenuOpen(false)}
          >
            <X size={18} aria-hidden="true" />
          </button>
        </div>
        <nav className="nav">
          <NavSection items={MAIN_NAV} onNavigate={() => setMenuOpen(false)} />
        </nav>
        <AccountMenu />
      </aside>
      {menuOpen && <div className="backdrop" data-testid="menu-backdrop" aria-hidden="true" onClick={() => setMenuOpen(false)} />}
      <div className="shell-main">
        <header className="topbar">
          <button
            type="button"
            className="icon-button menu-toggle"
            aria-label={menuOpen ? 'Close menu' : 'Open menu'}
            aria-expanded={menuOpen}
            aria-controls="side-navigation"
            onClick={() => setMenuOpen((open) => !open)}
          >
            <Menu size={20} aria-hidden="true" />
          </button>
          <Link to={paths.home} className="brand topbar-brand">
            <span className="brand-mark" aria-hidden="true">
              <AudioLines size={18} />
            </span>
            <span className="brand-name">Scribevault</span>
          </Link>
          <div className="topbar-spacer" />
          <ConnectionStatus />
        </header>
        <main id="main-content" className="content" tabIndex={-1}>
          <Suspense fallback={<LoadingScreen />}>
            <Outlet />
          </Suspense>
        </main>
      </div>
    </div>
  );
}

/**
 * Loads the user's settings as soon as the user is signed in (the shell only renders then) and
 * applies the theme. While they load, the previous visit's theme stays, so nothing flashes; when
 * loading fails, the defaults (system) apply.
 */
function useUserSettingsApplied() {
  const { settings, status } = useUserSettings();
  useTheme(status === 'loading' ? lastThemeChoice() : settings.theme);
}

function NavSection({ items, onNavigate }: { items: NavItem[]; onNavigate: () => void }) {
  return (
    <ul className="nav-list">
      {items.map(({ to, label, icon: Icon }) => (
        <li key={to}>
          <NavLink to={to} className={({ isActive }) => `nav-link${isActive ? ' active' : ''}`} onClick={onNavigate}>
            <Icon size={18} aria-hidden="true" />
            <span>{label}</span>
          </NavLink>
        </li>
      ))}
    </ul>
  );
}

/** Account button at the bottom of the menu; a plain user icon stands in without an email. */
function AccountMenu() {
  const user = useAppSelector(selectCurrentUser);
  const { signOut } = useAuthActions();
  const label = user?.email ?? user?.name ?? 'Account';
  return (
    <div className="account">
      <DropdownMenu.Root>
        <DropdownMenu.Trigger asChild>
          <button type="button" className="account-button" aria-label={`Account: ${label}`}>
            <span className="avatar" aria-hidden="true">
              {user?.email ? user.email.slice(0, 1).toUpperCase() : <User size={16} />}
            </span>
            <span className="account-label">{label}</span>
            <ChevronsUpDown size={16} aria-hidden="true" />
          </button>
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content className="menu" side="top" align="start" sideOffset={8}>
            <DropdownMenu.Label className="menu-label">{label}</DropdownMenu.Label>
            <DropdownMenu.Separator className="menu-separator" />
            <DropdownMenu.Item asChild>
              <Link to={paths.settings} className="menu-item">
                <Settings size={16} aria-hidden="true" /> Settings
              </Link>
            </DropdownMenu.Item>
            <DropdownMenu.Item className="menu-item" onSelect={() => signOut()}>
              <LogOut size={16} aria-hidden="true" /> Sign out
            </DropdownMenu.Item>
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
    </div>
  );
}
