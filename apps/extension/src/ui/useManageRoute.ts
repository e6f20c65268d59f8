import { useEffect, useState } from 'react';
import { type ManageRoute, manageRouteHash, parseManageRoute } from '../lib/manage-route.ts';

/** Goes to a view of the manage page (a new history entry, so Back returns). */
export function navigate(route: ManageRoute): void {
  location.hash = manageRouteHash(route);
}

/** The manage page's route, kept in step with the URL's hash (links, Back and reloads all work). */
export function useManageRoute(): ManageRoute {
  const [route, setRoute] = useState(() => parseManageRoute(location.hash));
  useEffect(() => {
    const follow = () => setRoute(parseManageRoute(location.hash));
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, []);
  return route;
}
