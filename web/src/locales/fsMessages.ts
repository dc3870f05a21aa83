/** The `fs` texts (mount explorer, mount management). Typed from English: a key missing in Chinese is a type error. */
import enFs from './en/fs.json';
import zhFs from './zh-CN/fs.json';

export const fsMessages: { en: typeof enFs; 'zh-CN': typeof enFs } = { en: enFs, 'zh-CN': zhFs };
