import { MIN_PASSWORD_LENGTH } from '@storage/contracts/auth';
import type { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { DomainRuleError } from '../commands/errors.ts';

// The one rule for a password a person chooses (a new member's first password, a member's own
// change, the first owner made with `ops staff:create`): long enough, and not easy to guess as
// zxcvbn-ts estimates it against common passwords, English words and names, keyboard patterns and
// the account's own name and email. Sign-in never applies it, so passwords set before it (and the
// demo's and the tests' staff, which seeds write directly) keep working.

/** zxcvbn's score: 3 is "safely unguessable", about 10^8 guesses and up. */
export const MIN_PASSWORD_SCORE = 3;

/** Whose password it is: a password built from these is easy for someone who knows them to guess. */
export interface PasswordOwner {
  email: string;
  firstName?: string | null;
  lastName?: string | null;
}

const ANALYSED_CHARACTERS = 64;

let checker: Promise<ZxcvbnFactory> | undefined;

/**
 * Loaded on the first check, not at import: the dictionaries cost about half a second and some
 * megabytes, which every process importing the staff commands (the seeds, each test file) would
 * otherwise pay without ever setting a password.
 */
function zxcvbn(): Promise<ZxcvbnFactory> {
  checker ??= Promise.all([import('@zxcvbn-ts/core'), import('@zxcvbn-ts/language-common'), import('@zxcvbn-ts/language-en')]).then(
    ([core, common, en]) =>
      new core.ZxcvbnFactory({
        dictionary: { ...common.dictionary, ...en.dictionary },
        graphs: common.adjacencyGraphs,
        // zxcvbn's own words for this say "personal or page related data"; say whose data it is.
        translations: { ...en.translations, warnings: { ...en.translations.warnings, userInputs: 'It contains the name or email of the account.' } },
        // Levenshtein matching (near misses of every dictionary word) took seconds a check here.
        // The matching grows with the square of the length and runs on the event loop: 200
        // characters took about a second of CPU, 64 about a quarter. Only the first 64 are
        // weighed; a password whose first 64 characters are hard to guess is.
        maxLength: ANALYSED_CHARACTERS,
      }),
  );
  return checker;
}

/** The owner's name and email, and the email's parts ("mia.manager@example.com" also as "mia", "manager", "example"). */
function userInputsOf(owner: PasswordOwner): string[] {
  const inputs = [owner.email, ...owner.email.split(/[@._+-]+/), owner.firstName ?? '', owner.lastName ?? ''];
  return [...new Set(inputs.map((input) => input.trim().toLowerCase()).filter((input) => input.length >= 3))];
}

/**
 * Why a new password is refused, in words that follow the field's name ("must be at least 12
 * characters", "is too easy to guess: ..."), or null when it is accepted.
 */
export async function newPasswordProblem(password: string, owner: PasswordOwner): Promise<string | null> {
  // Characters as a person counts them (an emoji is one), not UTF-16 units.
  if ([...password].length < MIN_PASSWORD_LENGTH) return `must be at least ${MIN_PASSWORD_LENGTH} characters`;
  const { score, feedback } = (await zxcvbn()).check(password, userInputsOf(owner));
  if (score >= MIN_PASSWORD_SCORE) return null;
  const why = [feedback.warning, ...feedback.suggestions].filter(Boolean).join(' ');
  return `is too easy to guess: ${why || 'Add more words that are less common.'}`;
}

/** Refuses (400 naming `field`) a new password that breaks the rule; call it before anything is written. */
export async function requireAcceptablePassword(field: string, password: string, owner: PasswordOwner): Promise<void> {
  const problem = await newPasswordProblem(password, owner);
  if (problem) throw new DomainRuleError(`${field}: ${problem}`, field);
}
