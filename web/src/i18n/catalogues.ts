// The whole catalogue of each language: the shared one (en.ts, zh-CN.ts) merged with each
// feature's own (web/src/features/<feature>/i18n.ts), whose top-level keys are its namespaces.
import en from './en';
import zhCN from './zh-CN';

export type Tree = { [k: string]: string | Tree };
export interface FeatureCatalogue {
  en: Tree;
  'zh-CN': Tree;
}

const features = import.meta.glob<FeatureCatalogue>('../features/*/i18n.ts', { eager: true, import: 'default' });

/** Merges b into a, refusing a key both define, so that two features never silently share one. */
function merge(a: Tree, b: Tree, where: string): Tree {
  const out: Tree = { ...a };
  for (const [k, v] of Object.entries(b)) {
    const mine = out[k];
    if (mine === undefined) out[k] = v;
    else if (typeof mine !== 'string' && typeof v !== 'string') out[k] = merge(mine, v, `${where}.${k}`);
    else throw new Error(`message ${where}.${k} is defined twice`);
  }
  return out;
}

function build(): { en: Tree; 'zh-CN': Tree } {
  let enAll = en as Tree;
  let zhAll = zhCN as Tree;
  for (const [file, cat] of Object.entries(features)) {
    enAll = merge(enAll, cat.en, file);
    zhAll = merge(zhAll, cat['zh-CN'], file);
  }
  return { en: enAll, 'zh-CN': zhAll };
}

export const messages = build();
