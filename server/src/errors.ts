import { ErrorStatus, type ErrorKind, type ValidationErrorData } from '@clipnest/contract';

/** The one error type services throw; `http/onError.ts` turns it into the envelope. */
export class AppError extends Error {
  readonly kind: ErrorKind;
  readonly data?: unknown;
  readonly headers?: Record<string, string>;

  constructor(kind: ErrorKind, message: string, options: { data?: unknown; headers?: Record<string, string> } = {}) {
    super(message);
    this.name = 'AppError';
    this.kind = kind;
    this.data = options.data;
    this.headers = options.headers;
  }

  get status(): number {
    return ErrorStatus[this.kind];
  }

  static validation(message: string, fields?: ValidationErrorData['fields']): AppError {
    return new AppError('VALIDATION', message, fields ? { data: { fields } } : {});
  }
  static unauthorized(message = 'unauthorized, please log in'): AppError {
    return new AppError('UNAUTHORIZED', message);
  }
  static forbidden(message = 'you do not have permission for this action'): AppError {
    return new AppError('FORBIDDEN', message);
  }
  static notFound(message: string): AppError {
    return new AppError('NOT_FOUND', message);
  }
  static conflict(message: string): AppError {
    return new AppError('CONFLICT', message);
  }
  /** 409 for a slug (link suffix) in use: `data.fields` names `slug`, so clients word it themselves. */
  static slugTaken(message = 'the link suffix is taken, try another suffix'): AppError {
    return new AppError('CONFLICT', message, { data: { fields: [{ path: 'slug', message }] } });
  }
}
