/**
 * A name an account's definitions are listed and picked by (a math channel's, a viewer layout's): what is wrong with
 * it, or null. It is shown as it is written, so it may not hide what it is: no control, format or line separator
 * characters (U+202E turns the text after it right to left, zero-width ones are invisible, U+2028 and U+2029 break a
 * list's line as a newline does), and no spaces at either end ("Trail " and
 * "Trail" would list as one name and be two). `also` names the characters a type refuses besides (a math channel's
 * quotes and backslashes), with their pattern. `storedName`: the name stored, on update.
 */
export function definitionNameProblem(name: string, also?: { characters: RegExp; named: string }, storedName?: string): string | null {
  // On update, a name kept as it is stored is not checked again: one written before a rule was added ("Trail ") does
  // not refuse every later change of the definition's other fields; a new name is checked.
  if (name !== '' && name === storedName) return null;
  if (!name.trim()) return 'is required';
  const refused = also ? `${also.named}, control, format or line separator characters` : 'control, format or line separator characters';
  if (name.length > 200 || /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u.test(name) || also?.characters.test(name)) return `must be at most 200 characters, without ${refused}`;
  if (name !== name.trim()) return 'must not begin or end with a space';
  return null;
}
