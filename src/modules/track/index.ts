// The public face of the track module: what other modules, plugins and the composition root may use.
export { default as trackRoutes } from './track.routes.ts';
export { createTrackService } from './track.service.ts';
