import type { ErrorKind, PermissionName } from '@clipnest/contract';
import type { z } from 'zod';

/**
 * Who may call an operation (server/src/http/auth.ts):
 * - `public`: nobody needs credentials; `optional`: anonymous works, the owner (admin or the creating key) sees more;
 * - `admin`: the admin's token only; `apikey`: an API key only; `signed-in`: the admin or any key (the tree then
 *   checks the key's mount permissions and base path);
 * - a permission name: the admin, or a key holding that permission.
 */
export type Access = 'public' | 'optional' | 'admin' | 'apikey' | 'signed-in' | PermissionName;

/** What the request carries besides its query. */
export type RequestBody =
  /** A JSON body read against a contract schema (its input side is documented). */
  | { json: z.ZodType; description?: string }
  /** multipart/form-data: the text fields of `fields`, plus the file part named `file`. */
  | { multipart: z.ZodObject; file: string; description?: string }
  /** The raw bytes of the body (a file, a part). */
  | { raw: string; description: string };

/** The success answer. */
export type Answer =
  /** The envelope with `data` (null: no `data`, e.g. a delete). */
  | {
      data: z.ZodType | null;
      status?: 200 | 201 | 202;
      description?: string;
      /** Other media types the route may answer instead (by the request's Accept), with what they hold. */
      also?: Record<string, string>;
      /** A matching If-None-Match answers 304 without a body. */
      notModified?: boolean;
    }
  /** JSON that is not the envelope (a backup file, a ShareX uploader). */
  | { json: z.ZodType; status?: 200; description: string; headers?: Record<string, string> }
  /** Bytes: a download, a thumbnail, raw text. `media` maps media types to what they hold. */
  | {
      media: Record<string, string>;
      status?: 200 | 201;
      description: string;
      headers?: Record<string, string>;
      notModified?: boolean;
      /** Range requests answer 206 with the part asked for. */
      ranges?: boolean;
    };

/** The description of one route (method and path) of /api. */
export interface OperationDoc {
  summary: string;
  description?: string;
  tag: string;
  access: Access;
  /** Path parameters that are not free strings (the rest are documented as strings). */
  params?: Record<string, z.ZodType>;
  /** The query, read with readQuery (a zod object). */
  query?: z.ZodObject | z.ZodType;
  body?: RequestBody;
  answer: Answer;
  /**
   * Error kinds this route answers besides the ones its shape implies (bad input, missing credentials, unknown
   * id); every answer may also be `default` (500 and the storage's 502/503/507).
   */
  errors?: ErrorKind[];
  /** Request headers the route reads (Range, If-None-Match…), by name: what they do. */
  headers?: Record<string, string>;
}

/** One route group's descriptions, keyed by `METHOD /api/path/{param}` (path parameters in braces). */
export type Operations = Record<string, OperationDoc>;
