export type LabErrorCode =
  | 'LAB_NOT_ROOT'
  | 'LAB_PEER_MISSING'
  | 'LAB_COMMAND_FAILED'
  | 'LAB_TIMEOUT'
  | 'LAB_UNIT_PROJECT';

export class LabError extends Error {
  override readonly name = 'LabError';
  constructor(
    readonly code: LabErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
