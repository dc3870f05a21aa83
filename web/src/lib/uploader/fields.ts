import { uploadMimetype } from '@clipnest/contract';
import type { ShareOptions } from './types';

/** Share options as [name, value] pairs, only those that are set (spec §5). */
export function shareOptionEntries(options: ShareOptions): [string, string][] {
  const out: [string, string][] = [];
  const text = (name: keyof ShareOptions, value: string | undefined) => {
    const trimmed = value?.trim();
    if (trimmed) out.push([name, trimmed]);
  };
  text('s3_config_id', options.s3_config_id);
  text('slug', options.slug);
  text('path', options.path);
  text('remark', options.remark);
  if (options.password) out.push(['password', options.password]);
  if (options.expires_in !== undefined && options.expires_in > 0) out.push(['expires_in', String(options.expires_in)]);
  if (options.max_views !== undefined && options.max_views > 0) out.push(['max_views', String(options.max_views)]);
  if (options.use_proxy !== undefined) out.push(['use_proxy', options.use_proxy ? 'true' : 'false']);
  if (options.encryption) out.push(['encryption', options.encryption]);
  return out;
}

/** The multipart body of POST /api/upload: options first so the server knows them before the bytes. */
export function buildUploadForm(file: File, filename: string, options: ShareOptions): FormData {
  const form = new FormData();
  form.append('mimetype', uploadMimetype(filename, file.type));
  for (const [name, value] of shareOptionEntries(options)) form.append(name, value);
  // Where the bytes go is known before the file (empty = the default), so the server streams it straight through.
  for (const name of ['s3_config_id', 'path']) if (!form.has(name)) form.append(name, '');
  // The exact size lets the server refuse an oversize file at once and stream to S3 in one request.
  form.append('size', String(file.size));
  form.append('file', file, filename);
  return form;
}

/** With several files one custom slug would clash: the 2nd file gets `-2`, the 3rd `-3`… */
export function slugForIndex(slug: string | undefined, index: number): string | undefined {
  const trimmed = slug?.trim();
  if (!trimmed) return undefined;
  return index === 0 ? trimmed : `${trimmed}-${index + 1}`;
}
