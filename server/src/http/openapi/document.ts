import { ErrorStatus, Permission, type ErrorKind, type PermissionName } from '@clipnest/contract';
import {
  emptyEnvelopeSchema,
  envelopeOf,
  errorEnvelopeSchema,
  validationErrorDataSchema,
} from '@clipnest/contract/responses';
import { SchemaCollector, type JsonSchema } from './jsonSchema.js';
import type { Access, Answer, OperationDoc, Operations } from './operation.js';

export interface DocumentInfo {
  /** The site title (Admin → Settings → Site). */
  title: string;
  version: string;
}

const ERROR_REF = '#/components/schemas/ErrorEnvelope';
const STATUS_TEXT: Record<number, string> = {
  400: 'Bad request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not found',
  405: 'Method not allowed',
  409: 'Conflict',
  410: 'Gone',
  412: 'Precondition failed',
  413: 'Payload too large',
  415: 'Unsupported media type',
  416: 'Range not satisfiable',
  423: 'Locked',
  429: 'Too many requests (see Retry-After)',
  500: 'Internal error',
  501: 'Not implemented',
  502: 'Bad gateway',
  503: 'Unavailable',
  507: 'Insufficient storage',
};

const kindName = (kind: ErrorKind) => kind.toLowerCase();

/** The security requirements of an access level (bearerAuth: the admin token; ApiKey: `Authorization: ApiKey …`). */
function securityOf(access: Access): Record<string, string[]>[] {
  switch (access) {
    case 'public':
      return [];
    case 'optional':
      return [{}, { bearerAuth: [] }, { ApiKey: [] }];
    case 'admin':
      return [{ bearerAuth: [] }];
    case 'apikey':
      return [{ ApiKey: [] }];
    default:
      return [{ bearerAuth: [] }, { ApiKey: [] }];
  }
}

function accessSentence(access: Access): string {
  switch (access) {
    case 'public':
      return 'No credentials needed.';
    case 'optional':
      return 'No credentials needed; the owner (the admin, or the key that created it) may send theirs.';
    case 'admin':
      return 'The admin only (Bearer token).';
    case 'apikey':
      return 'An API key only (`Authorization: ApiKey <key>`).';
    case 'signed-in':
      return 'The admin, or any API key.';
    default:
      return `The admin, or an API key with the ${access} permission (${Permission[access as PermissionName]}).`;
  }
}

/** Error kinds an operation answers, from its shape and its own list. */
function errorKindsOf(key: string, op: OperationDoc): ErrorKind[] {
  const kinds = new Set<ErrorKind>(op.errors ?? []);
  const hasPathParams = key.includes('{');
  if (op.body || op.query || hasPathParams) kinds.add('VALIDATION');
  if (op.body) kinds.add('PAYLOAD_TOO_LARGE');
  if (op.body && 'json' in op.body) kinds.add('UNSUPPORTED_MEDIA_TYPE');
  if (hasPathParams && op.access !== 'public') kinds.add('NOT_FOUND');
  if (op.access === 'admin' || op.access === 'apikey' || op.access === 'signed-in' || op.access in Permission) {
    kinds.add('UNAUTHORIZED');
    kinds.add('RATE_LIMITED');
    if (op.access !== 'apikey') kinds.add('FORBIDDEN');
  }
  return [...kinds];
}

function errorResponses(kinds: ErrorKind[]): Record<string, unknown> {
  const byStatus = new Map<number, ErrorKind[]>();
  for (const kind of kinds) byStatus.set(ErrorStatus[kind], [...(byStatus.get(ErrorStatus[kind]) ?? []), kind]);
  const out: Record<string, unknown> = {};
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    out[String(status)] = {
      $ref: `#/components/responses/Error${status}`,
      description: `${STATUS_TEXT[status] ?? 'Error'}: kind ${list.map((k) => `\`${kindName(k)}\``).join(' or ')}.`,
    };
  }
  out.default = { $ref: '#/components/responses/Error' };
  return out;
}

/** One `components.responses` entry per error status: the envelope with that `code` and its kinds. */
function errorComponents(): Record<string, unknown> {
  const statuses = [...new Set(Object.values(ErrorStatus))].sort((a, b) => a - b);
  const responses: Record<string, unknown> = {
    Error: {
      description: "Any other error: the envelope with its `kind` (500 `internal`, the storage's 502/503/507…).",
      content: { 'application/json': { schema: { $ref: ERROR_REF } } },
    },
  };
  for (const status of statuses) {
    const kinds = (Object.keys(ErrorStatus) as ErrorKind[]).filter((k) => ErrorStatus[k] === status).map(kindName);
    const narrowed: JsonSchema = {
      type: 'object',
      properties: {
        code: { const: status },
        kind: { enum: kinds },
        ...(status === 400 ? { data: { $ref: '#/components/schemas/ValidationErrorData' } } : {}),
      },
    };
    responses[`Error${status}`] = {
      description: `${STATUS_TEXT[status] ?? 'Error'} (kind ${kinds.map((k) => `\`${k}\``).join(', ')})`,
      content: { 'application/json': { schema: { allOf: [{ $ref: ERROR_REF }, narrowed] } } },
    };
  }
  return responses;
}

function headerObjects(headers: Record<string, string> | undefined): Record<string, unknown> | undefined {
  if (!headers) return undefined;
  return Object.fromEntries(
    Object.entries(headers).map(([name, description]) => [name, { description, schema: { type: 'string' } }]),
  );
}

const BINARY: JsonSchema = { type: 'string', format: 'binary' };

function successResponses(answer: Answer, schemas: SchemaCollector): Record<string, unknown> {
  const status = String(answer.status ?? 200);
  const out: Record<string, unknown> = {};
  if ('data' in answer) {
    const envelope = answer.data ? envelopeOf(answer.data) : emptyEnvelopeSchema;
    const content: Record<string, unknown> = { 'application/json': { schema: schemas.convert(envelope, 'output') } };
    for (const type of Object.keys(answer.also ?? {})) content[type] = { schema: { type: 'string' } };
    const extra = Object.entries(answer.also ?? {}).map(([type, what]) => ` ${type}: ${what}`);
    out[status] = {
      description: `${answer.description ?? 'The envelope; `data` as below.'}${extra.join('')}`,
      content,
    };
  } else if ('json' in answer) {
    out[status] = {
      description: answer.description,
      headers: headerObjects(answer.headers),
      content: { 'application/json': { schema: schemas.convert(answer.json, 'output') } },
    };
  } else {
    const content = Object.fromEntries(
      Object.keys(answer.media).map((type) => [
        type,
        { schema: type.startsWith('text/') ? { type: 'string' } : BINARY },
      ]),
    );
    const kinds = Object.entries(answer.media).map(([type, what]) => `${type}: ${what}`);
    out[status] = {
      description: `${answer.description} ${kinds.join(' ')}`,
      headers: headerObjects(answer.headers),
      content,
    };
    if (answer.ranges) out['206'] = { description: 'The part of the file the Range asked for.', content };
  }
  if ('notModified' in answer && answer.notModified) out['304'] = { description: 'Not modified (If-None-Match).' };
  return out;
}

function parametersOf(key: string, op: OperationDoc, schemas: SchemaCollector): unknown[] {
  const params: unknown[] = [];
  for (const [, name] of key.matchAll(/\{([^}]+)\}/g)) {
    const given = name ? op.params?.[name] : undefined;
    params.push({
      name,
      in: 'path',
      required: true,
      schema: given ? schemas.convert(given, 'input') : { type: 'string' },
    });
  }
  if (op.query) {
    const query = schemas.convert(op.query, 'input');
    const required = new Set((query.required as string[] | undefined) ?? []);
    for (const [name, raw] of Object.entries((query.properties ?? {}) as Record<string, JsonSchema>)) {
      const { description, ...schema } = raw;
      params.push({ name, in: 'query', required: required.has(name), ...(description ? { description } : {}), schema });
    }
  }
  for (const [name, description] of Object.entries(op.headers ?? {})) {
    params.push({ name, in: 'header', required: false, description, schema: { type: 'string' } });
  }
  return params;
}

function requestBodyOf(op: OperationDoc, schemas: SchemaCollector): unknown {
  const body = op.body;
  if (!body) return undefined;
  if ('json' in body) {
    return {
      required: true,
      ...(body.description ? { description: body.description } : {}),
      content: { 'application/json': { schema: schemas.convert(body.json, 'input') } },
    };
  }
  if ('multipart' in body) {
    const fields = schemas.convert(body.multipart, 'input');
    const schema = {
      ...fields,
      properties: { [body.file]: { ...BINARY, description: 'The file.' }, ...(fields.properties as object) },
      required: [body.file, ...((fields.required as string[] | undefined) ?? [])],
    };
    return {
      required: true,
      ...(body.description ? { description: body.description } : {}),
      content: { 'multipart/form-data': { schema } },
    };
  }
  return { required: true, description: body.description, content: { [body.raw]: { schema: BINARY } } };
}

/** `GET /api/pastes/{id}` → `getPastesById`. */
export function operationId(key: string): string {
  const [method = '', path = ''] = key.split(' ');
  const words = path
    .replace(/^\/api\//, '')
    .split('/')
    .filter(Boolean)
    .map((segment) => {
      const param = /^\{(.+)\}$/.exec(segment);
      const text = param ? `by-${param[1]}` : segment;
      return text
        .split(/[^A-Za-z0-9]+/)
        .filter(Boolean)
        .map((w) => w[0]!.toUpperCase() + w.slice(1))
        .join('');
    });
  return method.toLowerCase() + words.join('');
}

/** The OpenAPI 3.1 document of `operations` (the registry in ./operations). */
export function buildOpenApiDocument(operations: Operations, info: DocumentInfo): JsonSchema {
  const schemas = new SchemaCollector();
  schemas.convert(errorEnvelopeSchema, 'output');
  schemas.convert(validationErrorDataSchema, 'output');
  const paths: Record<string, Record<string, unknown>> = {};
  const tags: string[] = [];
  const keys = Object.keys(operations).sort((a, b) => {
    const [, pa = ''] = a.split(' ');
    const [, pb = ''] = b.split(' ');
    return pa === pb ? 0 : pa < pb ? -1 : 1;
  });
  for (const key of keys) {
    const op = operations[key]!;
    const [method = '', path = ''] = key.split(' ');
    if (!tags.includes(op.tag)) tags.push(op.tag);
    const description = [op.description, accessSentence(op.access)].filter(Boolean).join('\n\n');
    const parameters = parametersOf(key, op, schemas);
    const requestBody = requestBodyOf(op, schemas);
    (paths[path] ??= {})[method.toLowerCase()] = {
      operationId: operationId(key),
      summary: op.summary,
      description,
      tags: [op.tag],
      security: securityOf(op.access),
      'x-clipnest-access': op.access,
      ...(parameters.length ? { parameters } : {}),
      ...(requestBody ? { requestBody } : {}),
      responses: { ...successResponses(op.answer, schemas), ...errorResponses(errorKindsOf(key, op)) },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: `${info.title} API`,
      version: info.version,
      description:
        'Every `/api` answer is the envelope `{ code, message, data?, success }` (`code` equals the HTTP status); ' +
        'an error answer also carries `kind`, from one closed list. Send the admin token as ' +
        '`Authorization: Bearer <token>` or an API key as `Authorization: ApiKey <key>`.',
    },
    tags: tags.map((name) => ({ name })),
    paths,
    components: {
      schemas: schemas.components,
      responses: errorComponents(),
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: "The admin's session token (POST /api/admin/login answers it as `data.token`).",
        },
        ApiKey: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description: 'An API key (Admin → API keys), sent as `Authorization: ApiKey <key>`.',
        },
      },
    },
  };
}
