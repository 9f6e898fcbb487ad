/**
 * The pages of the web UI: the paths of the routes in ui/src/main.tsx, in React Router's syntax
 * (`:name` is one segment). Opened directly or reloaded, a path among these answers the UI's
 * page; any other unknown path is a 404. The server imports nothing of ui/, so the routes are
 * written here too: test/ui-pages.test.ts fails as soon as the two lists differ.
 */
export const UI_PAGES = [
  '/',
  '/organizations/:org',
  '/organizations/:org/varsets',
  '/organizations/:org/varsets/new',
  '/organizations/:org/workspaces',
  '/organizations/:org/projects',
  '/organizations/:org/audit-trail',
  '/organizations/:org/deleted-varsets',
  '/organizations/:org/import-export',
  '/varsets/:id',
  '/varsets/:id/edit',
  '/varsets/:id/history',
  '/workspaces/:id',
  '/projects/:id',
  '/runs/:id',
] as const;

/** Each page as React Router matches it: a parameter is one non-empty segment, case is ignored, a trailing slash allowed. */
const MATCHERS = UI_PAGES.map((page) => {
  const segments = page
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  return new RegExp(segments.length === 0 ? '^/$' : `^/${segments.join('/')}/?$`, 'i');
});

/** Whether a path (without its query) is one of the UI's pages. */
export function isUiPage(pathname: string): boolean {
  return MATCHERS.some((matcher) => matcher.test(pathname));
}
