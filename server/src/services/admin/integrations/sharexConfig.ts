import { hasPermission, SHAREX_KIND_PERMISSION, type SharexKind, type SharexUploader } from '@clipnest/contract';
import { AppError } from '../../../errors.js';
import type { ApiKeyPrincipal } from '../../../auth/principal.js';

/**
 * The uploader a key holder imports into ShareX. It carries the key the request came with (ShareX has no other
 * way to sign its requests); the key needs the permission of what it uploads. `siteTitle` names it in ShareX's
 * destination list.
 */
export function sharexUploader(input: {
  kind: SharexKind;
  origin: string;
  siteTitle: string;
  apiKey: string;
  principal: ApiKeyPrincipal;
}): SharexUploader {
  const { kind, origin, apiKey, principal } = input;
  if (!hasPermission(principal.permissions, SHAREX_KIND_PERMISSION[kind])) {
    const what = kind === 'file' ? 'file share' : 'text';
    throw AppError.forbidden(`this API key lacks the ${what} permission the ShareX ${kind} uploader needs`);
  }
  const title = input.siteTitle.trim() || 'Clipnest';
  const common = {
    Version: '17.0.0',
    RequestMethod: 'POST' as const,
    Headers: { Authorization: `ApiKey ${apiKey}` },
    ErrorMessage: '{json:message}',
  };
  if (kind === 'text') {
    return {
      ...common,
      Name: `${title} (text)`,
      DestinationType: 'TextUploader',
      RequestURL: `${origin}/api/paste`,
      // ShareX escapes {input} for the JSON body it sends.
      Body: 'JSON',
      Data: '{"content":"{input}","type":"text"}',
      URL: `${origin}{json:data.url}`,
    };
  }
  return {
    ...common,
    Name: `${title} (files)`,
    DestinationType: 'ImageUploader, FileUploader, TextUploader',
    RequestURL: `${origin}/api/upload`,
    Body: 'MultipartFormData',
    FileFormName: 'file',
    URL: `${origin}{json:data.link}`,
  };
}
