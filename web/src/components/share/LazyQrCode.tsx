import { lazy, Suspense, type ComponentProps } from 'react';

const QrCodeImpl = lazy(() => import('./QrCode').then((m) => ({ default: m.QrCode })));

/** {@link QrCode}, with the QR encoder loaded when a code is first shown (it is never on screen at load). */
export function LazyQrCode(props: ComponentProps<typeof QrCodeImpl>) {
  const size = props.size ?? 160;
  return (
    <Suspense fallback={<div style={{ width: size, height: size }} aria-hidden="true" />}>
      <QrCodeImpl {...props} />
    </Suspense>
  );
}
