// The appearance feature's face: what other features may use of it (the theme switch of the profile
// and whether the dark theme is in force, which the charts follow). Other features import this file only.
export { default as ThemeSwitch } from './components/ThemeSwitch.vue';
export { isDark } from './theme';
