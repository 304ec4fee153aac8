import * as Tooltip from '@radix-ui/react-tooltip';
import { Provider } from 'react-redux';
import { RouterProvider, type createBrowserRouter } from 'react-router';
import type { AppConfig } from '@/config/appConfig';
import { AuthProvider } from '@/features/auth/AuthProvider';
import type { AppStore } from './store';
import { Toaster } from './Toaster';

type Router = ReturnType<typeof createBrowserRouter>;

/** Providers shared by the app and the tests: store, auth, tooltips, router and toasts. */
export function App({ store, config, router }: { store: AppStore; config: AppConfig; router: Router }) {
  return (
    <Provider store={store}>
      <AuthProvider config={config}>
        <Tooltip.Provider delayDuration={300}>
          <RouterProvider router={router} />
          <Toaster navigate={(to) => void router.navigate(to)} />
        </Tooltip.Provider>
      </AuthProvider>
    </Provider>
  );
}
