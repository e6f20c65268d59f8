import { useEffect } from 'react';
import { useLocation } from 'wouter';
import { BASE } from './routes.ts';

/** What decides whether a click on a link stays in the page. */
export interface LinkClick {
  href: string;
  target: string;
  download: boolean;
  button: number;
  modified: boolean;
  defaultPrevented: boolean;
}

/**
 * The dashboard route a plain click on a link opens in the page, or undefined for the browser to
 * follow it. The shared components' links (a row's *Statistics*) are plain `<a href="/app/…">`, so
 * they also open in a new tab, bookmark and reload; a plain click on one should not reload the app.
 */
export function inAppRoute(click: LinkClick, origin: string): string | undefined {
  if (click.defaultPrevented || click.button !== 0 || click.modified || click.download) return undefined;
  if (click.target !== '' && click.target !== '_self') return undefined;
  let url: URL;
  try {
    url = new URL(click.href, origin);
  } catch {
    return undefined;
  }
  if (url.origin !== origin) return undefined;
  if (url.pathname !== BASE && !url.pathname.startsWith(`${BASE}/`)) return undefined;
  return `${url.pathname.slice(BASE.length) || '/'}${url.search}${url.hash}`;
}

/** Follows plain clicks on links to the dashboard's own views in the page (client-side navigation). */
export function useInAppLinks(): void {
  const [, navigate] = useLocation();
  useEffect(() => {
    const follow = (event: MouseEvent) => {
      const anchor = event.target instanceof Element ? event.target.closest('a[href]') : null;
      if (!(anchor instanceof HTMLAnchorElement)) return;
      const route = inAppRoute(
        {
          href: anchor.href,
          target: anchor.target,
          download: anchor.hasAttribute('download'),
          button: event.button,
          modified: event.metaKey || event.ctrlKey || event.shiftKey || event.altKey,
          defaultPrevented: event.defaultPrevented,
        },
        window.location.origin,
      );
      if (route === undefined) return;
      event.preventDefault();
      navigate(route);
    };
    document.addEventListener('click', follow);
    return () => document.removeEventListener('click', follow);
  }, [navigate]);
}
