import { ErrorStatus, type ErrorKind, type ValidationErrorData } from '@clipnest/contract';

/**
 * Why an error was raised, where one kind covers cases a protocol answers differently (never sent to clients):
 * `mount_boundary` is a change aimed at a mount point or a virtual folder above the mounts (400 in the API,
 * 403 over WebDAV).
 */
export type AppErrorReason = 'mount_boundary';

/** The one error type services throw; `http/onError.ts` turns it into the envelope. */
export class AppError extends Error {
  readonly kind: ErrorKind;
  readonly data?: unknown;
  readonly headers?: Record<string, string>;
  readonly reason?: AppErrorReason;

  constructor(
    kind: ErrorKind,
    message: string,
    options: { data?: unknown; headers?: Record<string, string>; reason?: AppErrorReason } = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.kind = kind;
    this.data = options.data;
    this.headers = options.headers;
    this.reason = options.reason;
  }

  get status(): number {
    return ErrorStatus[this.kind];
  }

  static validation(message: string, fields?: ValidationErrorData['fields']): AppError {
    return new AppError('VALIDATION', message, fields ? { data: { fields } } : {});
  }
  /** 400 for a change aimed at a mount point or a virtual folder above the mounts. */
  static mountBoundary(message: string, fields?: ValidationErrorData['fields']): AppError {
    return new AppError('VALIDATION', message, { ...(fields ? { data: { fields } } : {}), reason: 'mount_boundary' });
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
