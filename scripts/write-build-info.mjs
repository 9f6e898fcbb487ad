// Writes dist/build-info.json after the TypeScript build: the commit the build comes from and
// whether it is a release (src/build-info.ts), for builds that run without git (a packed tarball).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILD_INFO_FILE, buildInfoFromGit } from '../dist/build-info.js';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
fs.writeFileSync(BUILD_INFO_FILE, JSON.stringify(buildInfoFromGit(root)) + '\n');
