import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { ApiError } from './api/client';
import { Layout } from './components/Layout';
import { Organizations } from './pages/Organizations';
import { OrganizationVarsets } from './pages/OrganizationVarsets';
import { OrganizationWorkspaces, OrganizationProjects } from './pages/OrganizationLists';
import { VarsetPage } from './pages/VarsetPage';
import { VarsetEdit, VarsetNew } from './pages/VarsetForm';
import { WorkspacePage } from './pages/WorkspacePage';
import { ProjectPage } from './pages/ProjectPage';
import { RunPage } from './pages/RunPage';
import { NotFound } from './pages/NotFound';
import './app.css';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 10_000,
      // A 4xx will not change by asking again.
      retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
    },
  },
});

const router = createBrowserRouter([
  {
    element: <Layout />,
    children: [
      { path: '/', element: <Organizations /> },
      { path: '/organizations/:org', element: <OrganizationVarsets /> },
      { path: '/organizations/:org/varsets', element: <OrganizationVarsets /> },
      { path: '/organizations/:org/varsets/new', element: <VarsetNew /> },
      { path: '/organizations/:org/workspaces', element: <OrganizationWorkspaces /> },
      { path: '/organizations/:org/projects', element: <OrganizationProjects /> },
      { path: '/varsets/:id', element: <VarsetPage /> },
      { path: '/varsets/:id/edit', element: <VarsetEdit /> },
      { path: '/workspaces/:id', element: <WorkspacePage /> },
      { path: '/projects/:id', element: <ProjectPage /> },
      { path: '/runs/:id', element: <RunPage /> },
      { path: '*', element: <NotFound /> },
    ],
  },
]);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
