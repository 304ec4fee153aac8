import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from '@/app/App';
import { createAppRouter } from '@/app/router';
import { setupStore } from '@/app/store';
import { loadAppConfig } from '@/config/appConfig';
import { applyTheme, lastThemeChoice } from '@/lib/theme';
import './styles.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
const root = createRoot(container);

function renderMessage(text: string) {
  root.render(
    <div className="loading-screen" role={text === 'Loading...' ? 'status' : 'alert'}>
      <span>{text}</span>
    </div>,
  );
}

// The previous visit's theme, before anything is drawn; the user's setting follows once loaded.
applyTheme(lastThemeChoice());
renderMessage('Loading...');
loadAppConfig()
  .then((config) => {
    const store = setupStore();
    root.render(
      <StrictMode>
        <App store={store} config={config} router={createAppRouter()} />
      </StrictMode>,
    );
  })
  .catch((error: unknown) => {
    console.error('failed to load /config.json', error);
    renderMessage('Scribevault could not load its configuration. Please refresh the page.');
  });
