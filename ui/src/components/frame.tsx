import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactElement,
  type ReactNode,
} from 'react';
import { useLocation } from 'react-router';

/** What a message offers next to its words: a control of its own (the Undo of components/Undo.tsx). */
export type AnnouncementOffer = ReactElement;

/** A message about a write that succeeded, shown on the page at `path`; each new one is another `id`. */
interface Announcement {
  id: number;
  text: string;
  path: string;
  link?: AnnouncementOffer | undefined;
}

interface Frame {
  /** The organization the page belongs to, for the banner's navigation (null when none is known). */
  organization: string | null;
  showOrganization: (org: string | null) => void;
  announcement: Announcement | null;
  announce: (text: string, path?: string, link?: AnnouncementOffer) => void;
  dismiss: () => void;
}

const FrameContext = createContext<Frame | null>(null);

function useFrame(): Frame {
  const frame = useContext(FrameContext);
  if (!frame) throw new Error('used outside the frame of the pages');
  return frame;
}

/** What every page shares with the banner: which organization it is in, and what the last write did. */
export function FrameProvider({ children }: { children: ReactNode }) {
  const [organization, showOrganization] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState<Announcement | null>(null);
  const { pathname } = useLocation();
  // Leaving the page that showed a message ends it: coming back later does not repeat it.
  const previous = useRef(pathname);
  useEffect(() => {
    const left = previous.current;
    previous.current = pathname;
    if (left !== pathname) setAnnouncement((current) => (current?.path === left ? null : current));
  }, [pathname]);
  const count = useRef(0);
  const announce = useCallback(
    (text: string, path?: string, link?: AnnouncementOffer) =>
      setAnnouncement({ id: ++count.current, text, path: path ?? window.location.pathname, link }),
    [],
  );
  const dismiss = useCallback(() => setAnnouncement(null), []);
  const frame = useMemo(
    () => ({
      organization,
      showOrganization,
      announcement: announcement?.path === pathname ? announcement : null,
      announce,
      dismiss,
    }),
    [organization, announcement, pathname, announce, dismiss],
  );
  return <FrameContext.Provider value={frame}>{children}</FrameContext.Provider>;
}

/** Puts `org` in the banner's navigation while the page shows something of it. */
export function useOrganizationInNav(org: string | undefined): void {
  const { showOrganization } = useFrame();
  useEffect(() => {
    if (org) showOrganization(org);
  }, [org, showOrganization]);
}

export function useOrganizationOfPage(): string | null {
  return useFrame().organization;
}

/** Says what a successful write changed: on the current page, or on `path` where the write leads. */
export function useAnnounce(): (text: string, path?: string, link?: AnnouncementOffer) => void {
  return useFrame().announce;
}

/** The polite live region every page has: it holds the last write's message while that page is shown. */
export function StatusMessage() {
  const { announcement, dismiss } = useFrame();
  const link = announcement?.link;
  return (
    <div className={announcement ? 'status-message' : undefined}>
      <p role="status" aria-live="polite" className={announcement ? undefined : 'visually-hidden'}>
        {announcement?.text}
      </p>
      {/* Keyed by the message: a control's state (an Undo's) belongs to its own message only. */}
      {link && <span key={announcement.id}>{link}</span>}
      {announcement && (
        <button type="button" className="small" onClick={dismiss}>
          Dismiss
        </button>
      )}
    </div>
  );
}
