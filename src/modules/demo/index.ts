// The public face of the demo module: what other modules, plugins and the composition root may use.
export { firstDemoDay, seedDemoData } from './demo.service.ts';
export { demoPurgeTask } from './demo.task.ts';
