import { randomBytes } from 'node:crypto';
import { link, open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';

// Files of DATA_DIR that a start must find whole or not at all: a start stopped while writing one
// (Ctrl-C, a crash, a full disk) must not leave half a file that every later start trips over.

async function writeTemp(file: string, data: string, mode: number): Promise<string> {
  const temp = `${file}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  const handle = await open(temp, 'wx', mode);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(temp, { force: true });
    throw error;
  }
  await handle.close();
  return temp;
}

/** Makes a rename or a new name in `dir` survive a power cut (where the system lets a folder be synced). */
export async function syncDirectory(dir: string): Promise<void> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch {
    // Windows opens no folder: the rename itself is all it offers.
  } finally {
    await handle?.close();
  }
}

/** Replaces `file` with `data` at once: a reader finds the old content or the new, never part of it. */
export async function writeFileAtomic(file: string, data: string, mode = 0o644): Promise<void> {
  const temp = await writeTemp(file, data, mode);
  try {
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  await syncDirectory(dirname(file));
}

/**
 * Writes `file` whole, only if it does not exist yet: false, and nothing written, when it does (a
 * secret another start made meanwhile is kept, since what it protects may already use it).
 */
export async function createFileAtomic(file: string, data: string, mode = 0o644): Promise<boolean> {
  const temp = await writeTemp(file, data, mode);
  try {
    // A hard link fails on an existing name, where a rename would replace it.
    await link(temp, file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') {
      await rm(temp, { force: true });
      return false;
    }
    // A file system without hard links: a rename is still whole, only not exclusive.
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS') {
      await rm(temp, { force: true });
      throw error;
    }
    await rename(temp, file);
    await syncDirectory(dirname(file));
    return true;
  }
  await rm(temp, { force: true });
  await syncDirectory(dirname(file));
  return true;
}
