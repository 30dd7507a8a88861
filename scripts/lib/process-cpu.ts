import { execFileSync } from 'node:child_process'
import fs from 'node:fs'

// CPU time from /proc (Linux), for the benchmarks: on a machine shared with other work, the CPU
// a process spent per request moves far less than wall-clock latency does (see
// docs/decisions/016-cached-page-fast-path.md). Whole clock ticks (10 ms at 100 Hz) per process:
// meaningful over hundreds of calls, not for one.

const ticksPerSecond = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' })) || 100
  } catch {
    return 100
  }
})()

/** [ppid, user + system ticks] of a process, or null when it is gone or /proc is missing. */
function readStat(pid: number): [number, number] | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    // After "pid (comm) ": state, ppid, … utime is the 12th field from there, stime the 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return [Number(fields[1]), Number(fields[11]) + Number(fields[12])]
  } catch {
    return null
  }
}

/** Milliseconds of CPU that `pid` has used so far (0 if unknown). */
export function processCpuMs(pid: number): number {
  return ((readStat(pid)?.[1] ?? 0) * 1000) / ticksPerSecond
}

/**
 * A running total of the CPU used by a PostgreSQL server (the postmaster and its backends) since
 * the meter was made. Backends come and go: each is counted from when the meter first saw it (a
 * new one from its start), and one that exits between two readings loses only its last moments.
 */
export function clusterCpuMeter(postmasterPid: number): () => number {
  let seen = new Map<number, number>()
  let total = 0
  const read = () => {
    const now = new Map<number, number>()
    const own = readStat(postmasterPid)
    if (own) now.set(postmasterPid, own[1])
    let entries: string[] = []
    try {
      entries = fs.readdirSync('/proc')
    } catch {
      return now
    }
    for (const entry of entries) {
      if (!/^\d+$/.test(entry)) continue
      const stat = readStat(Number(entry))
      if (stat && stat[0] === postmasterPid) now.set(Number(entry), stat[1])
    }
    return now
  }
  seen = read()
  return () => {
    const now = read()
    for (const [pid, ticks] of now) total += Math.max(0, ticks - (seen.get(pid) ?? 0))
    seen = now
    return (total * 1000) / ticksPerSecond
  }
}

/** Whether CPU times can be read here (Linux). */
export const cpuTimesAvailable = fs.existsSync('/proc/self/stat')
