/** Every way @waved/native can refuse an input or fail. */
export type NativeErrorCode =
  /** No prebuild for this platform or CPU (only linux x64, arm64 and armv7 with glibc are built). */
  | 'NATIVE_UNSUPPORTED'
  /** The prebuild for this platform is missing from the package or does not load. */
  | 'NATIVE_LOAD'
  /** An argument is out of range (a path too long, a bad descriptor, a value of the wrong type). */
  | 'NATIVE_ARGUMENT'
  /** A system call failed; `systemCode` is its errno name (ENOENT, EADDRINUSE, ECONNREFUSED, ...). */
  | 'NATIVE_SYSCALL'
  /** The socket is closed. */
  | 'NATIVE_CLOSED';

export class NativeError extends Error {
  override readonly name = 'NativeError';
  /** For NATIVE_SYSCALL: the errno name, e.g. `ENOENT`. */
  readonly systemCode: string | undefined;
  /** For NATIVE_SYSCALL: the system call, e.g. `setsockopt`. */
  readonly syscall: string | undefined;
  constructor(
    readonly code: NativeErrorCode,
    message: string,
    options?: { cause?: unknown; systemCode?: string; syscall?: string },
  ) {
    super(message, options);
    this.systemCode = options?.systemCode;
    this.syscall = options?.syscall;
  }
}

/** True when `error` is a NativeError (with `code`, when given). */
export function isNativeError(error: unknown, code?: NativeErrorCode): error is NativeError {
  return error instanceof NativeError && (code === undefined || error.code === code);
}

/** Turns what the addon threw into a NativeError (NATIVE_SYSCALL or NATIVE_ARGUMENT). */
export function fromAddon(error: unknown): NativeError {
  if (error instanceof NativeError) return error;
  const e = error as { code?: unknown; syscall?: unknown; message?: unknown };
  const message = typeof e?.message === 'string' ? e.message : String(error);
  if (error instanceof TypeError) return new NativeError('NATIVE_ARGUMENT', message, { cause: error });
  return new NativeError('NATIVE_SYSCALL', message, {
    cause: error,
    ...(typeof e?.code === 'string' ? { systemCode: e.code } : {}),
    ...(typeof e?.syscall === 'string' ? { syscall: e.syscall } : {}),
  });
}
