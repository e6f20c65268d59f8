import { qrTarget } from '@shortlinks/contract/rules';
import { describe, expect, test } from 'vitest';
import { isQrScan } from './qr-scan.ts';

describe('isQrScan: a visit carrying qr=1 is a scan of the QR code', () => {
  test.each([
    ['/launch?qr=1', true],
    ['/launch?utm_source=x&qr=1', true],
    ['/launch?qr=0', false],
    ['/launch?qr=', false],
    ['/launch?qr=1x', false],
    ['/launch?qrcode=1', false],
    ['/launch', false],
    ['/launch?', false],
    [undefined, false],
  ])('%s → %s', (target, scan) => {
    expect(isQrScan(target)).toBe(scan);
  });
});

test('qrTarget: the short URL with qr=1', () => {
  expect(qrTarget('https://sho.rt/launch')).toBe('https://sho.rt/launch?qr=1');
});
