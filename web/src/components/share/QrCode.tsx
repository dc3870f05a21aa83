import QRCode from 'qrcode';
import { useEffect, useState } from 'react';
import { cn } from '../../lib/cn';
import { Skeleton } from '../ui/skeleton';

interface QrCodeProps {
  /** The text to encode, usually a share link. */
  value: string;
  /** Rendered size in CSS pixels. */
  size?: number;
  /** Accessible description, e.g. "QR code for the share link". */
  label: string;
  className?: string;
}

/** A QR code as an SVG image; dark modules on white so phones scan it in either theme. */
export function QrCode({ value, size = 160, label, className }: QrCodeProps) {
  const [svg, setSvg] = useState<{ value: string; markup: string } | null>(null);

  useEffect(() => {
    let cancelled = false;
    void QRCode.toString(value, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }).then((markup) => {
      if (!cancelled) setSvg({ value, markup });
    });
    return () => {
      cancelled = true;
    };
  }, [value]);

  if (!svg || svg.value !== value) {
    return (
      <div style={{ width: size, height: size }} className={className}>
        <Skeleton className="size-full rounded-md" />
      </div>
    );
  }
  return (
    <img
      src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg.markup)}`}
      width={size}
      height={size}
      alt={label}
      className={cn('rounded-md bg-white p-1', className)}
    />
  );
}

/** The QR code as a PNG data URL, for a download button. */
export function qrPngDataUrl(value: string, size = 512): Promise<string> {
  return QRCode.toDataURL(value, { width: size, margin: 2, errorCorrectionLevel: 'M' });
}
