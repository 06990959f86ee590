import type { FeatureCatalogue } from '../../i18n/catalogues';

// Notices the service writes name a message (`split.expense`); it is looked up here as
// noticeKeys.<key with "_" for ".">, with its params. Money params arrive formatted for the reader.
export default {
  en: {
    noticeKeys: {
      feedback_replied: {
        title: 'Your feedback has a reply',
        body: '{reply}',
      },
      split_expense: {
        title: '{group}: a new shared expense',
        body: '{who} recorded {amount}{note}. Your share is {share}.',
      },
      split_income: {
        title: '{group}: a new shared income',
        body: '{who} recorded an income of {amount}{note}. Your share is {share}.',
      },
      settlement_paid_you: {
        title: '{group}: a payment to you',
        body: '{who} recorded paying you {amount}. Please confirm you received it.',
      },
      settlement_received: {
        title: '{group}: a payment recorded',
        body: '{who} recorded receiving {amount} from you.',
      },
      settlement_confirmed: {
        title: '{group}: payment confirmed',
        body: '{who} confirmed receiving your {amount}.',
      },
      budget_exceeded: {
        title: 'Over budget for {month}',
        body: 'You have spent {spent} this month, more than your budget of {amount}.',
      },
      backup_completed: {
        title: 'Backup completed',
        body: 'The backup {name} is ready to download ({size}).',
      },
      backup_failed: {
        title: 'Backup failed',
        body: 'The backup {name} could not be written. The server log tells why.',
      },
      note: ' ({note})',
    },
    noticeLinks: {
      feedback: 'See your feedback',
      balances: 'See the balances',
      budget: 'See the budget',
      backups: 'See the backups',
      other: 'Open',
    },
    notices: {
      important: 'Important',
      gotIt: 'Got it',
      all: 'All',
      scope: 'Kind',
      scopes: {
        system: 'Announcement',
        group: 'Group notice',
        personal: 'Personal',
      },
      readAll: 'Mark all read',
      none: 'No notifications.',
      unread: 'Unread',
      pinned: 'Pinned',
      markRead: 'Mark read',
      publishTitle: 'Publish a notification',
      editTitle: 'Edit notification',
      publish: 'Publish',
      published: 'Notification published',
      saved: 'Notification saved',
      link: 'Link (optional)',
      image: 'Image URL (optional)',
      publishAt: 'Publish at (empty: now)',
      expireAt: 'Expires at (empty: never)',
      strongHint: 'Important (pops up)',
    },
  },
  'zh-CN': {
    noticeKeys: {
      feedback_replied: {
        title: '你的反馈有了回复',
        body: '{reply}',
      },
      split_expense: {
        title: '{group}：新的共同支出',
        body: '{who}记了一笔{amount}{note}，你分摊{share}。',
      },
      split_income: {
        title: '{group}：新的共同收入',
        body: '{who}记了一笔{amount}的收入{note}，你分得{share}。',
      },
      settlement_paid_you: {
        title: '{group}：有人还款给你',
        body: '{who}记录了付给你的{amount}，收到后请确认。',
      },
      settlement_received: {
        title: '{group}：还款已记下',
        body: '{who}记录了收到你付的{amount}。',
      },
      settlement_confirmed: {
        title: '{group}：还款已确认',
        body: '{who}确认收到了你付的{amount}。',
      },
      budget_exceeded: {
        title: '{month}预算超支了',
        body: '本月已花{spent}，超过了{amount}的预算。',
      },
      backup_completed: {
        title: '备份已完成',
        body: '备份文件{name}已可下载（{size}）。',
      },
      backup_failed: {
        title: '备份失败',
        body: '备份文件{name}没能写成，原因请看服务器日志。',
      },
      note: '（{note}）',
    },
    noticeLinks: {
      feedback: '查看我的反馈',
      balances: '查看往来结余',
      budget: '查看预算',
      backups: '查看备份',
      other: '打开',
    },
    notices: {
      important: '重要通知',
      gotIt: '知道了',
      all: '全部',
      scope: '类型',
      scopes: {
        system: '系统公告',
        group: '群公告',
        personal: '个人消息',
      },
      readAll: '全部标为已读',
      none: '没有消息。',
      unread: '未读',
      pinned: '置顶',
      markRead: '标为已读',
      publishTitle: '发布消息',
      editTitle: '编辑消息',
      publish: '发布',
      published: '消息已发布',
      saved: '消息已保存',
      link: '链接（可不填）',
      image: '图片地址（可不填）',
      publishAt: '发布时间（留空：立即）',
      expireAt: '过期时间（留空：永不）',
      strongHint: '重要（弹窗提醒）',
    },
  },
} satisfies FeatureCatalogue;
