// The statistics feature's face: the chart component (the accounts' net worth draws with it) and the
// statistics store. Other features import this file only.
export { default as EChart } from './components/EChart.vue';
export { useStatsStore } from './store';
