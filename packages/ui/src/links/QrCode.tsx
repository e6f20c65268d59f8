/** @jsxRuntime automatic @jsxImportSource react */ // Parcel cannot read the React version from "catalog:" (docs/extension.md).
import { qrTarget } from '@shortlinks/contract/rules';
import { useEffect, useState } from 'react';
import { qrFileName, qrPngDataUrl, qrSvg } from './qr.ts';

/**
 * The QR code of a short URL, with downloads as PNG and SVG. It encodes `url?qr=1`, as the API's
 * GET /links/{id}/qr does, so a visit from it is counted as a scan (docs/redirects.md).
 */
export function QrCode({ url, size = 112 }: { url: string; size?: number }) {
  const [codes, setCodes] = useState<{ svg: string; png: string }>();
  useEffect(() => {
    let current = true;
    const text = qrTarget(url);
    Promise.all([qrSvg(text), qrPngDataUrl(text)]).then(([svg, png]) => {
      if (current) setCodes({ svg, png });
    });
    return () => {
      current = false;
    };
  }, [url]);
  if (!codes) return <div className="spinner" role="status" aria-label="Drawing the QR code" />;
  const svgHref = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(codes.svg)}`;
  return (
    <div className="qr">
      <img src={svgHref} width={size} height={size} alt={`QR code of ${url}`} data-testid="qr-code" />
      <div className="row" style={{ gap: 4, justifyContent: 'center' }}>
        <a className="button small" href={codes.png} download={qrFileName(url, 'png')}>
          PNG
        </a>
        <a className="button small" href={svgHref} download={qrFileName(url, 'svg')}>
          SVG
        </a>
      </div>
    </div>
  );
}
