// A tar archive built in memory for tests (tar-stream's packer), entries dated 2026-11-28.
import tar from 'tar-stream';

export async function tarOf(items: { name: string; data?: string; directory?: boolean }[]): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  const done = new Promise<void>((resolve) => {
    pack.on('data', (chunk: unknown) => {
      chunks.push(chunk as Buffer);
    });
    pack.on('end', () => resolve());
  });
  for (const item of items) {
    if (item.directory) pack.entry({ name: item.name, type: 'directory', mtime: new Date('2026-11-28T00:00:00Z') });
    else pack.entry({ name: item.name, mtime: new Date('2026-11-28T00:00:00Z') }, item.data ?? '');
  }
  pack.finalize();
  await done;
  return Buffer.concat(chunks);
}
