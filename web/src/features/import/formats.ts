// The files the import reads, and how a person gets each one out of their bank or app, in both
// languages. The server tells the format from the file itself: this list only helps find the file.

export interface ImportFormatHelp {
  id: string;
  /** the file types to look for */
  files: string;
  name: { en: string; zh: string };
  how: { en: string; zh: string };
}

export const IMPORT_FORMAT_HELP: readonly ImportFormatHelp[] = [
  {
    id: 'wechat',
    files: 'CSV · XLSX',
    name: { en: 'WeChat Pay bill', zh: '微信支付账单' },
    how: {
      en:
        'In WeChat: Me → Services → Wallet → Bills → ⋯ → Download bills, “for personal reconciliation”. The bill ' +
        'comes by e-mail as a ZIP with a password sent in WeChat; unpack it and choose the file inside.',
      zh: '微信：我 → 服务 → 钱包 → 账单 → 右上角 ⋯ → 下载账单，用途选“用于个人对账”。账单以压缩包发到邮箱，解压密码在微信里，解压后选择里面的文件。',
    },
  },
  {
    id: 'alipay',
    files: 'CSV',
    name: { en: 'Alipay bill', zh: '支付宝账单' },
    how: {
      en:
        'In Alipay: My → Bills → ⋯ → Issue transaction statement, “for personal reconciliation”; or alipay.com → ' +
        'Bills → Download. Unpack the ZIP sent by e-mail.',
      zh: '支付宝：我的 → 账单 → 右上角 ⋯ → 开具交易流水证明，用途选“用于个人对账”；或在支付宝网页版账单页下载。解压邮件里的压缩包即可。',
    },
  },
  {
    id: 'ofx',
    files: 'OFX · QFX',
    name: { en: 'OFX / Quicken (QFX) statement', zh: 'OFX / Quicken（QFX）对账单' },
    how: {
      en:
        'In your online banking open the account’s transactions, choose Download or Export and pick OFX, Quicken ' +
        '(QFX) or Microsoft Money. One file may hold several accounts and cards.',
      zh: '在网上银行打开账户明细，点“下载”或“导出”，选择 OFX、Quicken（QFX）或 Microsoft Money 格式。一个文件里可以有多个账户和信用卡。',
    },
  },
  {
    id: 'qif',
    files: 'QIF',
    name: { en: 'QIF (Quicken, GnuCash, banks)', zh: 'QIF（Quicken、GnuCash、银行）' },
    how: {
      en:
        'In Quicken or GnuCash: File → Export → QIF; many banks offer QIF beside CSV. If every date could be read ' +
        'both day-first and month-first, you will be asked which it is.',
      zh: 'Quicken 或 GnuCash：文件 → 导出 → QIF；不少银行在下载明细时也提供 QIF。若日期既能读成“日/月”又能读成“月/日”，系统会请你选择。',
    },
  },
  {
    id: 'camt',
    files: 'XML (camt.053 · camt.052)',
    name: { en: 'ISO 20022 statement (camt.053 / camt.052)', zh: 'ISO 20022 对账单（camt.053 / camt.052）' },
    how: {
      en:
        'In European online banking: account statements → download as camt.053 (XML). If the bank sends a ZIP, ' +
        'unpack it and choose the XML file.',
      zh: '欧洲银行的网上银行：账户对账单 → 以 camt.053（XML）格式下载。若下载的是 ZIP 压缩包，请先解压再选择其中的 XML 文件。',
    },
  },
  {
    id: 'mt940',
    files: 'STA · MT940 · TXT',
    name: { en: 'MT940 statement', zh: 'MT940 对账单' },
    how: {
      en:
        'In online banking or banking software (common in Germany and the Netherlands): export the account’s ' +
        'transactions as MT940 / SWIFT. Opening and closing balances are checked against the rows.',
      zh: '在网上银行或银行客户端（德国、荷兰常见）中，把账户交易导出为 MT940 / SWIFT 格式。导入时会用期初、期末余额核对每一笔。',
    },
  },
  {
    id: 'ezbookkeeping',
    files: 'CSV · TSV',
    name: { en: 'ezBookkeeping', zh: 'ezBookkeeping' },
    how: {
      en: 'In ezBookkeeping: user settings → Data Management → Export Data, as CSV or TSV.',
      zh: 'ezBookkeeping：用户设置 → 数据管理 → 导出数据，选 CSV 或 TSV。',
    },
  },
  {
    id: 'firefly',
    files: 'CSV',
    name: { en: 'Firefly III', zh: 'Firefly III' },
    how: {
      en: 'In Firefly III: Options → Export data → export all transactions (CSV).',
      zh: 'Firefly III：选项 → 导出数据 → 导出全部交易（CSV）。',
    },
  },
  {
    id: 'actual',
    files: 'CSV',
    name: { en: 'Actual Budget', zh: 'Actual Budget' },
    how: {
      en: 'In Actual: open an account (or All accounts), select the transactions, then ⋯ → Export to CSV.',
      zh: 'Actual：打开某个账户（或“全部账户”），选中交易后点 ⋯ → 导出为 CSV。',
    },
  },
  {
    id: 'ynab',
    files: 'CSV',
    name: { en: 'YNAB register', zh: 'YNAB 交易登记表' },
    how: {
      en: 'In YNAB: the budget menu (top left) → Export Budget. Unpack the ZIP and choose the “Register” CSV.',
      zh: 'YNAB：左上角预算菜单 → Export Budget。解压下载的压缩包，选择文件名含“Register”的 CSV。',
    },
  },
  {
    id: 'qianji',
    files: 'CSV',
    name: { en: 'Qianji (钱迹)', zh: '钱迹' },
    how: {
      en: 'In Qianji: Me → Settings → Data import/export → Export bills as CSV.',
      zh: '钱迹：我的 → 设置 → 数据导入导出 → 导出账单，选择 CSV。',
    },
  },
  {
    id: 'sui',
    files: 'CSV · XLSX · XLS',
    name: { en: 'Suishouji (随手记)', zh: '随手记' },
    how: {
      en:
        'In the Suishouji app: Settings → Advanced → Export data (CSV, sent by e-mail); from the Suishouji cloud ' +
        'ledger: export to Excel (XLSX); from the Suishouji website: Export → Excel (XLS, a sheet for expenses, incomes, ' +
        'transfers). Transfers come out as one transfer each; its accounts and categories are matched to yours by ' +
        'name, or created when you import.',
      zh:
        '随手记 App：设置 → 高级 → 数据导出（CSV，发到邮箱）；随手记云账本：导出为 Excel（XLSX）；随手记网页版：导出 → Excel' +
        '（XLS，支出、收入、转账各一个工作表）。转账会合成一笔转账，不会变成两笔收支；账户和分类按名称对应你已有的，没有的在导入时新建。',
    },
  },
  {
    id: 'splitwise',
    files: 'CSV',
    name: { en: 'Splitwise group (into a group)', zh: 'Splitwise 群组（导入为群组）' },
    how: {
      en:
        'In Splitwise: open the group → Settings (gear) → Export as spreadsheet. Import it below under “Import a ' +
        'group”: who paid and every share are kept, and the balances match Splitwise’s total balance.',
      zh: 'Splitwise：打开群组 → 设置（齿轮）→ 导出为表格。在下方“导入群组”中导入：保留谁付款和每人份额，余额与 Splitwise 的合计一致。',
    },
  },
  {
    id: 'spliit',
    files: 'JSON · CSV',
    name: { en: 'Spliit group (into a group)', zh: 'Spliit 群组（导入为群组）' },
    how: {
      en:
        'In Spliit: open the group → Expenses → Export → JSON (the CSV cannot tell who paid a reimbursement). ' +
        'Import it below under “Import a group”.',
      zh: 'Spliit：打开群组 → 支出 → 导出 → JSON（CSV 看不出还款是谁付的）。在下方“导入群组”中导入。',
    },
  },
  {
    id: 'bank',
    files: 'CSV · XLSX',
    name: { en: 'Any bank or card statement', zh: '其他银行或信用卡明细' },
    how: {
      en:
        'Download the transactions from online banking as CSV or Excel. The first time, match its columns (date, ' +
        'amount, description); the mapping is kept for the next file.',
      zh: '在网上银行把交易明细下载为 CSV 或 Excel。第一次导入时对应一下列（日期、金额、摘要），之后同一家银行的文件会自动识别。',
    },
  },
  {
    id: 'ledger',
    files: 'CSV · JSON',
    name: { en: 'An export of this app', zh: '本应用导出的文件' },
    how: {
      en: 'Data → Export, as CSV or JSON. Importing it again books nothing twice.',
      zh: '数据 → 导出，选 CSV 或 JSON。重复导入同一个文件不会记两遍。',
    },
  },
];

/** What the file input accepts: every kind of file in the list. */
export const IMPORT_ACCEPT =
  '.csv,.tsv,.txt,.xlsx,.json,.ofx,.qfx,.qif,.xml,.sta,.mt940,.940,text/csv,application/json,application/xml,text/xml,' +
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
