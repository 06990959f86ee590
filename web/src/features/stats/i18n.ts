import type { FeatureCatalogue } from '../../i18n/catalogues';

// the period pickers, the custom range and the retry of the statistics page
export default {
  en: {
    stats: {
      periods: { custom: 'Range' },
      from: 'From',
      to: 'To',
      pickMonth: 'Month',
      pickYear: 'Year',
      pickDay: 'A day of the week',
      retry: 'Try again',
      rangeOrder: 'Choose a start date on or before the end date.',
    },
  },
  'zh-CN': {
    stats: {
      periods: { custom: '自定义' },
      from: '从',
      to: '到',
      pickMonth: '选择月份',
      pickYear: '选择年份',
      pickDay: '选择这一周中的某天',
      retry: '重试',
      rangeOrder: '开始日期不能晚于结束日期。',
    },
  },
} satisfies FeatureCatalogue;
