import type { FeatureCatalogue } from '../../i18n/catalogues';

export default {
  en: {
    recurringRule: {
      type: 'What it books', bill: 'Expense or income', transfer: 'Transfer',
      account: 'Account', from: 'From account', to: 'To account', transferTo: '{from} → {to}',
      past: 'The start date is in the past. What about the dates from {date} until today?',
      bookPast: 'Book them too', skipPast: 'Start from the next date',
      choosePast: 'Choose whether to book the past dates.', chooseTo: 'Choose the account the money goes to.',
      sameAccount: 'Choose two different accounts.',
    },
  },
  'zh-CN': {
    recurringRule: {
      type: '记什么', bill: '支出或收入', transfer: '转账',
      account: '账户', from: '转出账户', to: '转入账户', transferTo: '{from} → {to}',
      past: '开始日期已经过去。从{date}到今天的那几期怎么办？',
      bookPast: '一并补记', skipPast: '从下一期开始',
      choosePast: '请选择是否补记过去的几期。', chooseTo: '请选择转入账户。',
      sameAccount: '转出和转入不能是同一个账户。',
    },
  },
} satisfies FeatureCatalogue;
