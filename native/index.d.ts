/** A transfer in progress (opaque). */
export type SendfileHandle = { readonly __brand: 'SendfileHandle' };

export interface SendfileBinding {
  /**
   * Copies `length` bytes of `fileFd` from `offset` to `socketFd` with sendfile(2) on a thread of its own.
   * Both descriptors are duplicated first. `done` gets 0 and the byte count, or an errno (ECANCELED after
   * `cancel`, ETIMEDOUT when no byte could be sent for `stallMs`, ENODATA when the file ended early).
   */
  start(
    socketFd: number,
    fileFd: number,
    offset: number,
    length: number,
    stallMs: number,
    done: (errno: number, sent: number) => void,
  ): SendfileHandle;
  cancel(handle: SendfileHandle): void;
}

/** The addon, or null where it is not built (another OS, no compiler at install time). */
export const sendfile: SendfileBinding | null;
/** Why the addon is not there, when it is not. */
export const sendfileLoadError: string | null;
