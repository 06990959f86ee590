import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';

/** What a scheduled task works with; an app instance has all of it. */
export interface TaskDeps {
  db: Db;
  config: Pick<Config, 'appTimezone' | 'ratesUrl'>;
  log: FastifyBaseLogger;
  /** forgets what is cached of a user whose state a task changed */
  userState: { invalidate(userId: number): void };
  /** counts runs and failures by task (an app instance's `metrics`) */
  metrics?: { taskRun(task: string, seconds: number, failed: boolean): void };
}

export interface SchedulerTask {
  name: string;
  run(deps: TaskDeps, now: Date): Promise<unknown>;
}

export async function runSchedulerOnce(deps: TaskDeps, tasks: SchedulerTask[], now: Date = new Date()): Promise<void> {
  for (const task of tasks) {
    const started = performance.now();
    let failed = false;
    try {
      await task.run(deps, now);
    } catch (err) {
      failed = true;
      deps.log.error({ err, task: task.name }, 'scheduled task failed');
    }
    deps.metrics?.taskRun(task.name, (performance.now() - started) / 1000, failed);
  }
}

export function startScheduler(deps: TaskDeps, tasks: SchedulerTask[], everyMs = 60_000): { stop(): Promise<void> } {
  let running: Promise<void> | null = null;
  const tick = () => {
    if (running) return;
    running = runSchedulerOnce(deps, tasks).finally(() => {
      running = null;
    });
  };
  tick();
  const timer = setInterval(tick, everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
