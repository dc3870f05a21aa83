import type { ValidationErrorData } from '@clipnest/contract';
import type { Context } from 'hono';
import type { z } from 'zod';
import { AppError } from '../errors.js';
import { captureBody } from './auditCapture.js';
import { nodeRequestBody, readLimited } from './requestBody.js';

export const DEFAULT_JSON_LIMIT = 1024 * 1024;

function formatSize(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}

function validationError(where: string, error: z.ZodError): AppError {
  const fields: ValidationErrorData['fields'] = error.issues.map((issue) => ({
    path: issue.path.map(String).join('.') || where,
    message: issue.code === 'unrecognized_keys' ? `unknown field(s): ${issue.keys.join(', ')}` : issue.message,
  }));
  const summary = fields.map((f) => (f.path === where ? f.message : `${f.path}: ${f.message}`)).join('; ');
  return AppError.validation(`invalid ${where}: ${summary}`, fields);
}

/** Reads the body as text, refusing more than `maxBytes` without buffering past it. */
export async function readBodyText(c: Context, maxBytes: number): Promise<string> {
  const tooLarge = () => new AppError('PAYLOAD_TOO_LARGE', `request body is larger than ${formatSize(maxBytes)}`);
  const declared = Number(c.req.header('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge();
  const body = nodeRequestBody(c);
  if (!body) return '';
  try {
    return (await readLimited(body, maxBytes, tooLarge)).toString('utf8');
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw AppError.validation(`the request body could not be read: ${(error as Error).message}`);
  }
}

/** Parses a JSON body against a schema: 415 for another content type, 400 for bad JSON or bad fields. */
export async function readJson<S extends z.ZodType>(
  c: Context,
  schema: S,
  options: { maxBytes?: number } = {},
): Promise<z.output<S>> {
  const type = c.req.header('content-type') ?? '';
  if (!/^application\/([a-z0-9.+-]*\+)?json\b/i.test(type)) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', `expected Content-Type: application/json, got ${type || 'none'}`);
  }
  const text = await readBodyText(c, options.maxBytes ?? DEFAULT_JSON_LIMIT);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw AppError.validation(`malformed JSON body: ${(error as Error).message}`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw validationError('body', parsed.error);
  captureBody(c, parsed.data);
  return parsed.data;
}

export function readQuery<S extends z.ZodType>(c: Context, schema: S): z.output<S> {
  const parsed = schema.safeParse(c.req.query());
  if (!parsed.success) throw validationError('query', parsed.error);
  return parsed.data;
}
