// The categories feature's face: categories and tags as their screen manages them. Other features
// import this file only.
export { useCategoriesStore } from './store';
export { default as CategoryGrid } from './components/CategoryGrid.vue';
