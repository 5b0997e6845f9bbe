// Where a run's CPU went, by the kind of process that spent it: every process's user and system
// time read from Linux's /proc a few times a second while the run goes on, each put under a part
// by its name and command line (Chromium, PostgreSQL, Redis, the test processes, lint/types/build),
// a process the tests started (a product started as a user would, a benchmark's smoke run) under
// the test processes, the kernel's threads under the kernel, and the rest (the machine's own
// services) as other. A process that ends between two looks takes what it spent since the last one
// with it; the machine's own counter (/proc/stat) has every tick, so the gap is reported, not guessed.

import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { MS_PER_TICK, machineCpu } from './measure.ts';

export const CPU_PARTS = ['chromium', 'postgresql', 'redis', 'testProcesses', 'lintTypesBuild', 'kernel', 'other'] as const;
export type CpuPart = (typeof CPU_PARTS)[number];

/** The part a process belongs to, by its name and command line. */
export function partOf(name: string, commandLine: string): CpuPart {
  if (name === 'postgres' || /\/postgres(\s|$)/.test(commandLine)) return 'postgresql';
  if (name.startsWith('redis') || /\bredis-server\b/.test(commandLine)) return 'redis';
  if (/chrom/i.test(name) || /\/chromium\b/.test(commandLine)) return 'chromium';
  if (/\bbiome\b|\btsc\b|\bvite(\.js)?\s+build\b|\besbuild\b|\brolldown\b|ops\/checks\//.test(commandLine)) return 'lintTypesBuild';
  if (/vitest/.test(commandLine)) return 'testProcesses';
  return 'other';
}

/** Linux's kernel threads are kthreadd (pid 2) and its children. */
const KTHREADD = '2';

/**
 * The part of a process: the kernel's threads the kernel's; by its own name and command line where
 * they say; else its parent's when that is the tests' or the build's (what a test or a script
 * started is its work); else other.
 */
export function partOfProcess(pid: string, parentPid: string, name: string, commandLine: string, parentPart: CpuPart | undefined): CpuPart {
  if (pid === KTHREADD || parentPid === KTHREADD) return 'kernel';
  const own = partOf(name, commandLine);
  if (own === 'other' && (parentPart === 'testProcesses' || parentPart === 'lintTypesBuild')) return parentPart;
  return own;
}

interface Seen {
  part: CpuPart;
  /** Ticks it had at the first look (a process already running when the sampler started keeps those out). */
  firstTicks: number;
  lastTicks: number;
}

/** One look at a process: its name, parent, start time (with the pid, what tells it apart from a later process of the same pid) and ticks. */
function look(pid: string): { name: string; parentPid: string; started: string; ticks: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const open = stat.indexOf('(');
    const close = stat.lastIndexOf(')');
    const fields = stat.slice(close + 2).split(' ');
    // After the name: state (3rd field), ppid (4th) … utime (14th), stime (15th), starttime (22nd).
    return { name: stat.slice(open + 1, close), parentPid: fields[1]!, started: fields[19]!, ticks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return null; // ended since the directory was listed
  }
}

function commandLine(pid: string): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
  } catch {
    return '';
  }
}

export interface CpuByPart {
  /** CPU seconds the whole machine was busy during the run (every process, ours or not). */
  machineBusySeconds: number;
  /** What each part spent, in CPU seconds. */
  byPart: Record<CpuPart, number>;
  /** Busy time no process was seen to spend: mostly processes that ended between two looks, and interrupts. */
  unattributedSeconds: number;
  /** The busy time spread over every core: no run of the same work on this machine can be shorter. */
  floorSeconds: number;
  cores: number;
}

/** Starts looking; `stop()` ends it and returns the figures, or null off Linux (no /proc). */
export function sampleCpuByPart(intervalMs = 250): { stop(): CpuByPart | null } {
  const machineBefore = machineCpu();
  const seen = new Map<string, Seen>();
  /** The part of each pid as last seen: what a new process's parent was. */
  const partOfPid = new Map<string, CpuPart>();
  /** One look at every process; the first (`baseline`) takes what was already running as the start, and any process seen later is new. */
  const lookAll = (baseline = false) => {
    let pids: string[];
    try {
      pids = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
    } catch {
      return;
    }
    // In pid order, parents (older, lower pids until the numbers wrap) mostly before their children.
    for (const pid of pids.sort((a, b) => Number(a) - Number(b))) {
      const now = look(pid);
      if (!now) continue;
      const key = `${pid}@${now.started}`;
      const known = seen.get(key);
      if (known) {
        known.lastTicks = now.ticks;
        continue;
      }
      const part = partOfProcess(pid, now.parentPid, now.name, commandLine(pid), partOfPid.get(now.parentPid));
      partOfPid.set(pid, part);
      seen.set(key, { part, firstTicks: baseline ? now.ticks : 0, lastTicks: now.ticks });
    }
  };
  lookAll(true);
  const timer = setInterval(() => lookAll(), intervalMs);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      lookAll();
      const machineAfter = machineCpu();
      if (!machineBefore || !machineAfter) return null;
      const byPart = Object.fromEntries(CPU_PARTS.map((part) => [part, 0])) as Record<CpuPart, number>;
      for (const process of seen.values()) byPart[process.part] += ((process.lastTicks - process.firstTicks) * MS_PER_TICK) / 1000;
      const machineBusySeconds = (machineAfter.busyMs - machineBefore.busyMs) / 1000;
      const attributed = Object.values(byPart).reduce((sum, seconds) => sum + seconds, 0);
      const cores = availableParallelism();
      const round = (seconds: number) => Math.round(seconds * 10) / 10;
      return {
        machineBusySeconds: round(machineBusySeconds),
        byPart: Object.fromEntries(Object.entries(byPart).map(([part, seconds]) => [part, round(seconds)])) as Record<CpuPart, number>,
        unattributedSeconds: round(Math.max(0, machineBusySeconds - attributed)),
        floorSeconds: round(machineBusySeconds / cores),
        cores,
      };
    },
  };
}
