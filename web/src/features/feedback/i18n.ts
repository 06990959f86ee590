import type { FeatureCatalogue } from '../../i18n/catalogues';

export default {
  en: {
    feedback: {
      send: 'Send feedback',
      submit: 'Send',
      placeholder: 'What works, what does not, what you miss…',
      contactHint: 'Optional: how to reach you',
      thanks: 'Thank you! Your feedback was sent.',
      yours: 'Your feedback',
      none: 'You have not sent any feedback yet.',
      reply: 'Reply',
      status: {
        pending: 'Pending',
        replied: 'Replied',
        closed: 'Closed',
      },
    },
  },
  'zh-CN': {
    feedback: {
      send: '提交反馈',
      submit: '提交',
      placeholder: '哪里好用、哪里不好用、还想要什么……',
      contactHint: '可不填：怎么联系你',
      thanks: '谢谢！反馈已提交。',
      yours: '我的反馈',
      none: '你还没有提交过反馈。',
      reply: '回复',
      status: {
        pending: '待处理',
        replied: '已回复',
        closed: '已关闭',
      },
    },
  },
} satisfies FeatureCatalogue;
