import type { FeatureCatalogue } from '../../i18n/catalogues';

// the categories and tags screen
export default {
  en: {
    categories: {
      categories: 'Categories',
      tags: 'Tags',
      addCategory: '+ Category',
      addTag: '+ Tag',
      newCategory: 'New category',
      newTag: 'New tag',
      rename: 'Rename',
      renamed: 'Renamed',
      colorSaved: 'Color saved',
      colorOf: 'Color of {name}',
      moveUp: 'Move {name} up',
      moveDown: 'Move {name} down',
      noneOfKind: 'No categories of this kind.',
      noTags: 'No tags yet. Tags mark transactions across categories, e.g. #travel.',
      deleteNamed: 'Delete “{name}”',
      deleteHint:
        'Transactions, recurring bills and saved filters using this category can be moved to another category of the ' +
        'same kind first.',
      itsTransactions: 'Its transactions',
      doNotMove: 'Do not move (only if the category is unused)',
      moveTo: 'Move them to {name}',
      deleteTag: 'Delete tag',
      deleteTagConfirm: 'Delete the tag #{name}? It is removed from its transactions.',
      tagDeleted: 'Tag deleted',
    },
  },
  'zh-CN': {
    categories: {
      categories: '分类',
      tags: '标签',
      addCategory: '+ 分类',
      addTag: '+ 标签',
      newCategory: '新建分类',
      newTag: '新建标签',
      rename: '重命名',
      renamed: '已重命名',
      colorSaved: '颜色已保存',
      colorOf: '“{name}”的颜色',
      moveUp: '上移“{name}”',
      moveDown: '下移“{name}”',
      noneOfKind: '这一类还没有分类。',
      noTags: '还没有标签。标签可以跨分类标记账目，例如 #旅行。',
      deleteNamed: '删除“{name}”',
      deleteHint: '使用该分类的账目、周期账单和常用筛选，可以先转移到同类型的另一个分类。',
      itsTransactions: '它的账目',
      doNotMove: '不转移（仅当该分类未被使用时）',
      moveTo: '转移到“{name}”',
      deleteTag: '删除标签',
      deleteTagConfirm: '删除标签 #{name}？它会从相关账目中移除。',
      tagDeleted: '标签已删除',
    },
  },
} satisfies FeatureCatalogue;
