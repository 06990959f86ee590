// The public face of the rates module: what other modules, plugins and the composition root may use.
export { ratesFetchTask } from './rates.fetch.ts';
export { latestRates, ratesByCurrency } from './rates.repo.ts';
export { default as ratesRoutes } from './rates.routes.ts';
export { createRateService } from './rates.service.ts';
