import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { ApiError } from './api/client';
import { forgetAnswersOnTokenChange } from './api/hooks';
import { router } from './router';
import { startTheme } from './ui/theme';
import { startI18n } from './i18n/i18n';
import './styles.css';

const queryClient = new QueryClient({
  defaultOptions: {
    // Requests always run (the client's timeout and the offline banner tell the person), instead
    // of pausing while the browser says it is offline: a paused query would show "Loading…" forever.
    mutations: { networkMode: 'always' },
    queries: {
      networkMode: 'always',
      staleTime: 10_000,
      // A refusal (4xx) will not change on retry; a network blip or a 5xx might.
      retry: (count, err) => count < 2 && !(err instanceof ApiError && err.status >= 400 && err.status < 500),
    },
  },
});

forgetAnswersOnTokenChange(queryClient);
startTheme();

// Move focus to the new screen's content after navigation, for keyboard and screen-reader users.
router.subscribe('onResolved', ({ pathChanged }) => {
  if (pathChanged) document.getElementById('main')?.focus({ preventScroll: true });
});

// The first render waits for the person's language (its catalogue may be a lazy chunk).
void startI18n().then(() =>
  createRoot(document.getElementById('app')!).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </StrictMode>,
  ),
);
