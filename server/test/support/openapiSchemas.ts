// Checks real answers against the schemas of GET /api/openapi.json with a JSON Schema 2020-12 validator. Ajv 8 is
// not a dependency of ours: it comes with the web build's PWA plugin (workbox-build), and is found through it.
import { createRequire } from 'node:module';

export type JsonValue = Record<string, unknown>;

interface Ajv2020 {
  addSchema(schema: object, key: string): void;
  addFormat(name: string, format: RegExp): void;
  getSchema(ref: string): ((data: unknown) => boolean) & { errors?: unknown[] | null };
  errorsText(errors?: unknown[] | null): string;
}

function loadAjv(): new (options: object) => Ajv2020 {
  const fromWorkbox = createRequire(createRequire(import.meta.url).resolve('workbox-build/package.json'));
  const mod = fromWorkbox('ajv/dist/2020') as { default: new (options: object) => Ajv2020 };
  return mod.default;
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A validator of answers: `check(operation, status, body)` answers the problems ('' when the body fits). */
export function answerChecker(document: JsonValue) {
  const Ajv = loadAjv();
  const ajv = new Ajv({ strict: false, allErrors: true });
  ajv.addFormat('date-time', ISO_TIME);
  ajv.addFormat('date', ISO_DATE);
  ajv.addFormat('binary', /[\s\S]*/);
  ajv.addSchema(document, 'openapi');
  const paths = document.paths as Record<string, Record<string, { responses: Record<string, JsonValue> }>>;
  const responses = (document.components as { responses: Record<string, JsonValue> }).responses;

  /** `GET /api/pastes/{id}` → the JSON schema pointer of its answer with this status (or `default`). */
  const pointerOf = (operation: string, status: number): string => {
    const [method = '', path = ''] = operation.split(' ');
    const op = paths[path]?.[method.toLowerCase()];
    if (!op) throw new Error(`${operation} is not in the document`);
    const key = String(status) in op.responses ? String(status) : 'default';
    let response = op.responses[key]!;
    let base = `#/paths/${path.replace(/~/g, '~0').replace(/\//g, '~1')}/${method.toLowerCase()}/responses/${key}`;
    const ref = response.$ref as string | undefined;
    if (ref) {
      const name = ref.split('/').pop()!;
      response = responses[name]!;
      base = `#/components/responses/${name}`;
    }
    if (!(response.content as JsonValue | undefined)?.['application/json']) {
      throw new Error(`${operation} ${status} has no JSON answer in the document`);
    }
    return `${base}/content/application~1json/schema`;
  };

  return (operation: string, status: number, body: unknown): string => {
    const validate = ajv.getSchema(`openapi${pointerOf(operation, status)}`);
    if (validate(body)) return '';
    return `${operation} ${status}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 600)}`;
  };
}
