import { mkdirSync, realpathSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../errors.js';
import { isInsideDir, resolveReal } from './realPath.js';

function refuse(message: string): AppError {
  return AppError.validation(message, [{ path: 'root_path', message }]);
}

/**
 * The folders an operator lets local storage configs live in (LOCAL_STORAGE_ROOTS). A config's root must
 * resolve (symlinks included) inside one of them; it is created when missing and stored as its real path.
 */
export class LocalRoots {
  private readonly roots: string[];

  constructor(roots: string[]) {
    this.roots = roots.map((r) => path.resolve(r));
  }

  /** The allowed roots as configured (absolute). */
  get configured(): readonly string[] {
    return this.roots;
  }

  /** Real paths of the allowed roots, each created when missing. */
  private realRoots(): string[] {
    return this.roots.map((root) => {
      mkdirSync(root, { recursive: true });
      return realpathSync(root);
    });
  }

  private describe(): string {
    return `root_path must be inside one of the allowed roots (LOCAL_STORAGE_ROOTS): ${this.roots.join(', ')}`;
  }

  /** true when an existing or future folder lies inside an allowed root once symlinks are resolved. */
  allows(real: string): boolean {
    const roots = this.realRoots();
    return roots.some((root) => isInsideDir(real, root));
  }

  /**
   * Checks a requested root folder and creates it: absolute, no `..`, inside an allowed root after
   * resolving symlinks (before and after creating it). Answers its real path. 400 naming root_path otherwise.
   */
  async prepare(requested: string): Promise<string> {
    if (!path.isAbsolute(requested)) throw refuse('root_path must be an absolute path');
    if (requested.split(/[\\/]/).includes('..')) throw refuse('root_path may not contain ".." segments');
    const candidate = path.resolve(requested);
    const allowed = (real: string) => this.realRoots().some((root) => isInsideDir(real, root));
    let real: string;
    try {
      real = await resolveReal(candidate);
    } catch (err) {
      throw refuse(`root_path cannot be resolved: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
    }
    if (!allowed(real)) throw refuse(this.describe());
    try {
      await fs.mkdir(real, { recursive: true });
      real = await fs.realpath(real);
      if (!(await fs.stat(real)).isDirectory()) throw new Error('ENOTDIR');
    } catch {
      throw refuse('root_path is not a folder that can be created or used');
    }
    if (!allowed(real)) throw refuse(this.describe());
    return real;
  }
}
