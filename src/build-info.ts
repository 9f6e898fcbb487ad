import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where a build of varsetd comes from: the commit it was built from, and whether that commit is a release. */
export interface BuildInfo {
  /** The git commit, and whether files git tracks were changed from it; undefined where git could not tell. */
  commit: string | undefined;
  dirty: boolean;
  /** Built from the commit that set package.json's version, unchanged: that version's release. */
  release: boolean;
}

const HERE = path.dirname(fileURLToPath(import.meta.url));
/** Written by `npm run build` beside the compiled code, so that a packed tarball, with no git, still knows. */
export const BUILD_INFO_FILE = path.join(HERE, 'build-info.json');

/**
 * A release is the commit that sets package.json's version (cutting a release changes it, with
 * the CHANGELOG's section and the manifest of released migrations); every later commit, or a
 * changed tree, is an unreleased build of what follows that release.
 */
export function buildInfoFromGit(root: string): BuildInfo {
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  try {
    const commit = git('rev-parse', 'HEAD');
    const released = git('log', '-1', '--format=%H', '-G', '"version":', '--', 'package.json');
    const dirty = git('status', '--porcelain', '--untracked-files=no') !== '';
    return { commit, dirty, release: commit === released && !dirty };
  } catch {
    return { commit: undefined, dirty: false, release: false };
  }
}

/** This build's: the file the build wrote, or, run from the sources, git's answer. */
export function buildInfo(): BuildInfo {
  if (fs.existsSync(BUILD_INFO_FILE)) return JSON.parse(fs.readFileSync(BUILD_INFO_FILE, 'utf8')) as BuildInfo;
  return buildInfoFromGit(path.dirname(HERE));
}

/** `0.3.0` for a release build; `0.3.0+<commit>` (`.dirty` when changed) for any other build after 0.3.0. */
export function versionOf(packageVersion: string, build: BuildInfo): string {
  if (build.release) return packageVersion;
  return `${packageVersion}+${build.commit?.slice(0, 12) ?? 'unknown'}${build.dirty ? '.dirty' : ''}`;
}
