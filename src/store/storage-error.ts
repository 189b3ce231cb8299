// A failed write of a run directory's file, said with the file's name and the system's reason:
// `Error: ENOSPC: write` alone leaves the user guessing which file and what to do next.
import { StorageError } from '../domain/errors.js';

const REASONS: Record<string, string> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is used up',
  EROFS: 'the file system is read-only',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EIO: 'an input/output error',
  EFBIG: 'the file is too large',
};

/** Wraps `error` (from fs) as a StorageError naming `path`; one already wrapped is passed on. */
export function storageError(path: string, error: unknown): StorageError {
  if (error instanceof StorageError) return error;
  const code = (error as NodeJS.ErrnoException).code ?? 'EUNKNOWN';
  const reason = REASONS[code] ?? (error as Error).message ?? String(error);
  return new StorageError(`cannot write ${path}: ${reason} (${code})`, path, code);
}
