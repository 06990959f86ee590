import { AppError } from './errors.ts';

/**
 * Usernames: read after NFKC (full-width "ｗａｎｇ" is "wang"), then 3 to 32 characters of letters of
 * any script, the digits 0-9, "_", "." and "-"; a name with letters outside ASCII (王小明, 李雷)
 * may be 2 characters long, as one such letter carries as much as several Latin ones. Letters of
 * Latin, Cyrillic and Greek, which hold look-alikes of each other ("pаypal" with a Cyrillic "а"),
 * may not be mixed in one name; other scripts mix freely (Han with kana, Han with Latin).
 */
export const USERNAME_MAX = 32;
export type UsernameProblem = 'length' | 'characters' | 'mixed_scripts';

const ALLOWED = /^[\p{L}0-9_.-]+$/u;
const LOOKALIKE_SCRIPTS: [string, RegExp][] = [
  ['Latin', /\p{Script=Latin}/u],
  ['Cyrillic', /\p{Script=Cyrillic}/u],
  ['Greek', /\p{Script=Greek}/u],
];

export function normalizeUsername(raw: string): string {
  return raw.normalize('NFKC').trim();
}

/** What is wrong with a username (after normalizing it), or null. */
export function usernameProblem(name: string): UsernameProblem | null {
  const chars = [...name];
  if (!ALLOWED.test(name)) return chars.length > USERNAME_MAX ? 'length' : 'characters';
  const wide = chars.some((c) => c.codePointAt(0)! > 0x7f);
  if (chars.length < (wide ? 2 : 3) || chars.length > USERNAME_MAX) return 'length';
  const scripts = LOOKALIKE_SCRIPTS.filter(([, re]) => chars.some((c) => re.test(c)));
  if (scripts.length > 1) return 'mixed_scripts';
  return null;
}

const MESSAGES: Record<UsernameProblem, string> = {
  length: `must be 3 to ${USERNAME_MAX} characters (2 when it has letters outside A-Z)`,
  characters: 'may hold only letters, the digits 0-9, "_", "." and "-"',
  mixed_scripts: 'may not mix Latin, Cyrillic and Greek letters, which look alike',
};

/** The normalized username, or 40001 on `field` with a `reason` a client can name. */
export function acceptUsername(raw: string, field = 'username'): string {
  const name = normalizeUsername(raw);
  const problem = usernameProblem(name);
  if (problem)
    throw new AppError(400, 40001, `${field} ${MESSAGES[problem]}`, [{ field, message: MESSAGES[problem] }], {
      reason: problem,
    });
  return name;
}

export const usernameMessage = (p: UsernameProblem) => MESSAGES[p];
