// The public face of the feedback module: what other modules, plugins and the composition root may use.
export { default as feedbackRoutes } from './feedback.routes.ts';
export { createFeedbackService } from './feedback.service.ts';
