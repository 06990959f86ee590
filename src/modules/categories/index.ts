// The public face of the categories module: what other modules, plugins and the composition root may use.
export { createDefaultCategories, pickLocale } from './categories.defaults.ts';
export type { Locale } from './categories.defaults.ts';
export { recentHistory } from './categories.repo.ts';
export { default as categoriesRoutes } from './categories.routes.ts';
export { createCategoryService, type CategoryService } from './categories.service.ts';
export { SUGGEST_WINDOW, noteScorer, scoreCategories } from '../../lib/category-suggest.ts';
export type { HistoryItem } from '../../lib/category-suggest.ts';
