import { describe, expect, test } from 'vitest';
import { inAppRoute, type LinkClick } from './in-app-links.ts';

const ORIGIN = 'https://links.example.com';
const plain = (href: string, more: Partial<LinkClick> = {}): LinkClick => ({
  href,
  target: '',
  download: false,
  button: 0,
  modified: false,
  defaultPrevented: false,
  ...more,
});

describe('links that open in the page', () => {
  test('a plain click on a link to a dashboard view becomes that route', () => {
    expect(inAppRoute(plain(`${ORIGIN}/app/links/lnk_1`), ORIGIN)).toBe('/links/lnk_1');
    expect(inAppRoute(plain(`${ORIGIN}/app`), ORIGIN)).toBe('/');
    expect(inAppRoute(plain(`${ORIGIN}/app/tags?sort=name#top`), ORIGIN)).toBe('/tags?sort=name#top');
  });

  test('the browser follows everything else itself', () => {
    expect(inAppRoute(plain('https://sho.rt/spring'), ORIGIN)).toBeUndefined();
    expect(inAppRoute(plain(`${ORIGIN}/spring`), ORIGIN)).toBeUndefined();
    expect(inAppRoute(plain(`${ORIGIN}/docs`), ORIGIN)).toBeUndefined();
    expect(inAppRoute(plain(`${ORIGIN}/application`), ORIGIN)).toBeUndefined();
    expect(inAppRoute(plain(`${ORIGIN}/app/links/1`, { target: '_blank' }), ORIGIN)).toBeUndefined();
    expect(inAppRoute(plain(`${ORIGIN}/app/links/1`, { modified: true }), ORIGIN)).toBeUndefined();
    expect(inAppRoute(plain(`${ORIGIN}/app/links/1`, { button: 1 }), ORIGIN)).toBeUndefined();
    expect(inAppRoute(plain(`${ORIGIN}/app/links/1`, { download: true }), ORIGIN)).toBeUndefined();
    expect(inAppRoute(plain(`${ORIGIN}/app/links/1`, { defaultPrevented: true }), ORIGIN)).toBeUndefined();
  });
});
