import type { FastifyInstance } from 'fastify';

export interface SchedulerTask {
  name: string;
  run(app: FastifyInstance, now: Date): Promise<unknown>;
}

export async function runSchedulerOnce(app: FastifyInstance, tasks: SchedulerTask[], now: Date = new Date()): Promise<void> {
  for (const task of tasks) {
    try {
      await task.run(app, now);
    } catch (err) {
      app.log.error({ err, task: task.name }, 'scheduled task failed');
    }
  }
}

export function startScheduler(app: FastifyInstance, tasks: SchedulerTask[], everyMs = 60_000): { stop(): Promise<void> } {
  let running: Promise<void> | null = null;
  const tick = () => {
    if (running) return;
    running = runSchedulerOnce(app, tasks).finally(() => {
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
