import type { FeatureCatalogue } from '../../i18n/catalogues';

export default {
  en: { appearance: { title: 'Appearance', system: 'As the system', light: 'Light', dark: 'Dark' } },
  'zh-CN': { appearance: { title: '外观', system: '跟随系统', light: '浅色', dark: '深色' } },
} satisfies FeatureCatalogue;
