// The generated receipt screenshots the browser tests give the add form, with what each one shows.
import { readFileSync } from 'node:fs';
import type { Truth } from '../fixtures/receipts/generate.ts';

const dir = new URL('../fixtures/receipts/', import.meta.url);
const truths = JSON.parse(readFileSync(new URL('truths.json', dir), 'utf8')) as Truth[];

/** What the screenshot whose file name starts with `prefix` shows. */
export const truth = (prefix: string): Truth => truths.find((x) => x.file.startsWith(prefix))!;

/** A screenshot's bytes. */
export const bytes = (file: string): Buffer => readFileSync(new URL(file, dir));
