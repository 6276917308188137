import { useEffect, useRef } from 'react';
import { Link, NavLink, Route, Routes, useLocation } from 'react-router';
import { KeysPage } from '../admin/keys.page';
import { UsagePage } from '../admin/usage.page';
import { WebhooksPage } from '../admin/webhooks.page';
import { BrowsePage } from '../browse/browse.page';
import { MapPage } from '../map/map.page';
import { SearchPage } from '../search/search.page';
import { useSession } from '../session/session.context';
import { SignInPage } from '../session/sign-in.page';
import { TrackPage } from '../track/track.page';
import { UploadPage } from '../upload/upload.page';
import { NotFoundPage } from './not-found.page';

/**
 * After a client-side navigation, focus moves to the new page's heading, as a page load would
 * reset it: a screen reader announces the page, and Tab starts from its top.
 */
function useFocusOnNavigation(): void {
  const { pathname } = useLocation();
  // The path focus was last placed for: a page load (or an effect run twice) moves nothing.
  const placed = useRef(pathname);
  useEffect(() => {
    if (placed.current === pathname) return;
    placed.current = pathname;
    document.querySelector<HTMLElement>('main h1')?.focus();
  }, [pathname]);
}

export function App() {
  const session = useSession();
  useFocusOnNavigation();
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="top">
        <Link to="/" className="brand">
          trackgraph
        </Link>
        {session.signedIn && (
          <>
            <nav aria-label="Main">
              <ul>
                <li>
                  <NavLink to="/" end>
                    Search
                  </NavLink>
                </li>
                <li>
                  <NavLink to="/browse">Browse</NavLink>
                </li>
                <li>
                  <NavLink to="/map">Map</NavLink>
                </li>
                <li>
                  <NavLink to="/analyse">Analyse a file</NavLink>
                </li>
                {session.scope === 'ADMIN' && (
                  <li>
                    <NavLink to="/admin/keys">Keys</NavLink>
                  </li>
                )}
                {session.scope !== null && (
                  <>
                    <li>
                      <NavLink to="/admin/webhooks">Webhooks</NavLink>
                    </li>
                    <li>
                      <NavLink to="/admin/usage">Usage</NavLink>
                    </li>
                  </>
                )}
              </ul>
            </nav>
            <button type="button" className="sign-out secondary" onClick={() => session.signOut()}>
              Sign out
            </button>
          </>
        )}
      </header>
      <main id="main" tabIndex={-1}>
        {session.signedIn ? (
          <Routes>
            <Route path="/" element={<SearchPage />} />
            <Route path="/track/:trackKey" element={<TrackPage />} />
            <Route path="/browse" element={<BrowsePage />} />
            <Route path="/map" element={<MapPage />} />
            <Route path="/analyse" element={<UploadPage />} />
            <Route path="/admin/keys" element={<KeysPage />} />
            <Route path="/admin/webhooks" element={<WebhooksPage />} />
            <Route path="/admin/usage" element={<UsagePage />} />
            <Route path="*" element={<NotFoundPage />} />
          </Routes>
        ) : (
          <SignInPage />
        )}
      </main>
    </>
  );
}
