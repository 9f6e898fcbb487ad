import { lazy, StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter, Route, Routes } from 'react-router';
import { ApiError } from './api/client';
import { Layout } from './components/Layout';
import { Organizations } from './pages/Organizations';
import { OrganizationVarsets } from './pages/OrganizationVarsets';
import { OrganizationWorkspaces, OrganizationProjects } from './pages/OrganizationLists';
import { AuditTrail } from './pages/AuditTrail';
import { DeletedVarsets } from './pages/DeletedVarsets';
import { VarsetPage } from './pages/VarsetPage';
import { VarsetEdit, VarsetNew } from './pages/VarsetForm';
import { VarsetHistory } from './pages/VarsetHistory';
import { WorkspacePage } from './pages/WorkspacePage';
import { ProjectPage } from './pages/ProjectPage';
import { RunPage } from './pages/RunPage';
import { NotFound } from './pages/NotFound';
import './app.css';

// Loaded when first opened: it stays out of the first load.
const ImportExport = lazy(() => import('./pages/ImportExport').then((m) => ({ default: m.ImportExport })));

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 10_000,
      // A 4xx will not change by asking again.
      retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
    },
  },
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <Routes>
          <Route element={<Layout />}>
            <Route path="/" element={<Organizations />} />
            <Route path="/organizations/:org" element={<OrganizationVarsets />} />
            <Route path="/organizations/:org/varsets" element={<OrganizationVarsets />} />
            <Route path="/organizations/:org/varsets/new" element={<VarsetNew />} />
            <Route path="/organizations/:org/workspaces" element={<OrganizationWorkspaces />} />
            <Route path="/organizations/:org/projects" element={<OrganizationProjects />} />
            <Route path="/organizations/:org/audit-trail" element={<AuditTrail />} />
            <Route path="/organizations/:org/deleted-varsets" element={<DeletedVarsets />} />
            <Route
              path="/organizations/:org/import-export"
              element={
                <Suspense fallback={<p>Loading…</p>}>
                  <ImportExport />
                </Suspense>
              }
            />
            <Route path="/varsets/:id" element={<VarsetPage />} />
            <Route path="/varsets/:id/edit" element={<VarsetEdit />} />
            <Route path="/varsets/:id/history" element={<VarsetHistory />} />
            <Route path="/workspaces/:id" element={<WorkspacePage />} />
            <Route path="/projects/:id" element={<ProjectPage />} />
            <Route path="/runs/:id" element={<RunPage />} />
            <Route path="*" element={<NotFound />} />
          </Route>
        </Routes>
      </BrowserRouter>
    </QueryClientProvider>
  </StrictMode>,
);
