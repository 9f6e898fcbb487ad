import fs from 'node:fs';

/** How often a varsetd started by npm looks whether what started it is still there. */
const POLL_MS = 500;
/** The shells npm may run a package's bin through (its `script-shell`, /bin/sh unless set). */
const SHELLS = new Set(['sh', 'dash', 'bash', 'ash', 'ksh', 'mksh', 'zsh']);

/**
 * npm (`npx varsetd serve`, `npm exec`) runs varsetd through `sh -c`, and passes SIGTERM and
 * SIGINT to that shell alone. Where /bin/sh does not replace itself with the command (dash, on
 * Debian and Ubuntu), the shell dies of SIGTERM and leaves varsetd running, orphaned, on its port;
 * and should npm itself be killed, the shell and varsetd outlive it. So a varsetd that npm started
 * (npm's `npm_lifecycle_event` in its environment) stops as on SIGTERM, draining its workers, once
 * the process that started it is gone: its parent, or, when that parent is npm's shell, npm.
 * Signals cannot tell this (nothing reaches varsetd) and neither can stdin (npm passes its own
 * terminal), hence a look every POLL_MS. Started otherwise (systemd, `nohup varsetd serve &`, a
 * double fork), varsetd outlives its parent as any daemon does.
 *
 * A SIGINT sent to npm alone still stops nothing: dash catches it and waits for varsetd, and npm
 * waits for dash, so no process goes. Ctrl-C at a terminal reaches every process of the
 * foreground group, varsetd too.
 */
export function stopWhenLauncherGoes(): void {
  if (process.env.npm_lifecycle_event === undefined) return;
  const parent = process.ppid;
  const watched = [parent];
  const launcher = SHELLS.has(commandOf(parent) ?? '') ? parentOf(parent) : undefined;
  if (launcher !== undefined && launcher > 1) watched.push(launcher);
  const timer = setInterval(() => {
    if (process.ppid === parent && watched.every(isRunning)) return;
    clearInterval(timer);
    console.error('varsetd: the npm process that started it is gone: stopping');
    process.kill(process.pid, 'SIGTERM');
  }, POLL_MS);
  timer.unref();
}

/** A process's state letter and parent, from /proc (Linux); undefined elsewhere or once it is gone. */
function stat(pid: number): { state: string; parent: number } | undefined {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // pid (command) state ppid …: the command may hold spaces and parentheses.
    const [state, parent] = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state: state!, parent: Number(parent) };
  } catch {
    return undefined;
  }
}

function parentOf(pid: number): number | undefined {
  return stat(pid)?.parent;
}

function commandOf(pid: number): string | undefined {
  try {
    return fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** Whether a process is still there and not a zombie (a process that exited and was not reaped yet). */
function isRunning(pid: number): boolean {
  if (process.platform === 'linux') {
    const found = stat(pid);
    return found !== undefined && found.state !== 'Z' && found.state !== 'X';
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
