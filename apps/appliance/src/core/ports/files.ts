/**
 * The files the appliance writes itself (settings, the hostapd config, pid and flag files). Every
 * write is atomic (temp file, fsync, rename, directory fsync) with the given mode, 0600 by default,
 * so a power cut leaves the old or the new content, never a torn file.
 */
export interface FileStore {
  /** The file as UTF-8, or null when it does not exist. */
  read(path: string): Promise<string | null>;
  write(path: string, data: string | Uint8Array, mode?: number): Promise<void>;
  /** Removes a file; a missing file is not an error. */
  remove(path: string): Promise<void>;
  /** Creates a directory and its parents with `mode` (default 0700); an existing one is kept as it is. */
  mkdir(path: string, mode?: number): Promise<void>;
}
