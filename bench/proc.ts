import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

/**
 * The CPU time of processes, from /proc (Linux): the benches' Worker CPU per request is the utime + stime of the
 * workerd that runs the Worker (npm run bench, npm run bench:profile).
 */

/** Clock ticks per second of utime/stime in /proc/<pid>/stat (`getconf CLK_TCK`, 100 on Linux). */
export const CLK_TCK = (() => {
  try {
    const n = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim());
    return Number.isFinite(n) && n > 0 ? n : 100;
  } catch {
    return 100;
  }
})();
export const TICK_MS = 1000 / CLK_TCK;

export interface ProcStat {
  pid: number;
  ppid: number;
  comm: string;
  /** utime + stime of the whole process (all its threads, live and exited), in clock ticks. */
  ticks: number;
}

export function procStat(pid: number): ProcStat | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return null; // Gone, or not Linux.
  }
  // "pid (comm) state ppid ..."; comm may hold spaces and parentheses, so fields count from the last ")".
  const close = text.lastIndexOf(")");
  const comm = text.slice(text.indexOf("(") + 1, close);
  const fields = text.slice(close + 2).split(" ");
  // fields[0] is field 3 (state): ppid is field 4, utime 14, stime 15.
  return { pid, ppid: Number(fields[1]), comm, ticks: Number(fields[11]) + Number(fields[12]) };
}

export interface Workerd {
  pid: number;
  ticks: number;
  /**
   * wrangler dev runs two workerd processes: its dev proxy on the dev port (`--socket-addr=entry=<ip>:<port>`),
   * which forwards every request to a second one running the API Worker itself (entry on port 0).
   */
  role: "worker" | "dev-proxy";
}

/**
 * The workerd processes descending from `root` (wrangler dev → its node child → workerd), found by walking the
 * parent links of /proc/<pid>/stat, with their utime + stime. The one listening on `devPort` is wrangler's dev
 * proxy when there is more than one.
 */
export function workerds(root: number | undefined, devPort: number | null): Workerd[] {
  if (root === undefined) return [];
  let pids: number[];
  try {
    pids = readdirSync("/proc")
      .filter((d) => /^\d+$/.test(d))
      .map(Number);
  } catch {
    return [];
  }
  const children = new Map<number, ProcStat[]>();
  for (const pid of pids) {
    const st = procStat(pid);
    if (!st) continue;
    const list = children.get(st.ppid) ?? [];
    list.push(st);
    children.set(st.ppid, list);
  }
  const found: ProcStat[] = [];
  const queue = [root];
  while (queue.length) {
    for (const child of children.get(queue.shift()!) ?? []) {
      if (child.comm === "workerd") found.push(child);
      queue.push(child.pid);
    }
  }
  const onDevPort = (pid: number) => {
    if (devPort === null) return false;
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
      return args.some((a) => a.startsWith("--socket-addr=entry=") && a.endsWith(`:${devPort}`));
    } catch {
      return false;
    }
  };
  return found.map((st) => ({
    pid: st.pid,
    ticks: st.ticks,
    role: found.length > 1 && onDevPort(st.pid) ? "dev-proxy" : "worker",
  }));
}
