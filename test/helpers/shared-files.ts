import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Real exports published by others are not kept in the project: they live in `../shared/<folder>`
 * beside the repository (with their source and licence in its README), where CI always has them.
 * A fresh clone alone has no such folder: the tests on it skip with this reason instead of passing.
 */
const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface SharedFolder {
  /** absolute path of the folder, whether or not it exists */
  dir: string;
  /** the reason to skip, or false when the folder is there */
  skip: string | false;
  /** absolute path of a file in it */
  file(name: string): string;
}

export function sharedFolder(folder: string): SharedFolder {
  const dir = path.resolve(REPO_ROOT, '..', 'shared', folder);
  const skip = existsSync(dir) ? false : `real files absent: ${dir} is missing (it sits beside the repository)`;
  return { dir, skip, file: (name) => path.join(dir, name) };
}
