// A CSV header field's name and unit (`Speed [km/h]`, `Temp (°C)`) and whether it names the time column, found in one
// pass. The patterns they replace, /^(.*?)\s*[[(]\s*([^\])]*?)\s*[\])]$/ and
// /^(time|timestamp|t|zeit|temps|tiempo|tempo)\s*(?:[[(]\s*([^\])]*?)\s*[\])])?$/i, had three ways to split a run of
// spaces inside the bracket (`\s*`, the lazy unit, `\s*`) and tried every opening bracket for the name: cubic in a field
// such as `t(` + spaces + `x` (a 4 KB header took 38 s) and quadratic in one of many `(` (8 KB: 150 ms). A header field is
// as long as the file's writer makes it, so these give the patterns' answers by scanning the field a constant number
// of times.

/** What `.` of a pattern does not match: the name before a unit never spans a line break. */
const LINE_TERMINATOR = /[\n\r\u2028\u2029]/;
/** A time column's word, whole (`Time`, `Timestamp`, `t`, or the word of a locale that writes decimal commas). */
const TIME_WORD = /^(?:time|timestamp|t|zeit|temps|tiempo|tempo)$/i;

/**
 * `Name [unit]` or `Name (unit)` (either closing bracket) split into the name and the unit, spaces trimmed from both
 * (`\s`, as String.prototype.trim); null when the field does not end in a bracketed unit. The unit holds no `]` or `)`,
 * so its opening bracket is the first `[` or `(` after the last `]` or `)` before the closing one (`a [b [c]` is `a`,
 * `b [c`); the name before it may hold any character but a line break. As /^(.*?)\s*[[(]\s*([^\])]*?)\s*[\])]$/.
 */
export function unitInName(field: string): [name: string, unit: string] | null {
  const close = field.length - 1;
  if (field[close] !== ']' && field[close] !== ')') return null;
  let open = close - 1;
  while (open >= 0 && field[open] !== ']' && field[open] !== ')') open--;
  open++;
  while (open < close && field[open] !== '[' && field[open] !== '(') open++;
  if (open >= close) return null;
  const name = field.slice(0, open).trimEnd();
  if (LINE_TERMINATOR.test(name)) return null;
  return [name, field.slice(open + 1, close).trim()];
}

/**
 * A time column's header: its word as written and its unit (undefined when it has no bracket), or null when the field
 * is not one. As /^(time|timestamp|t|zeit|temps|tiempo|tempo)\s*(?:[[(]\s*([^\])]*?)\s*[\])])?$/i.
 */
export function timeHeader(field: string): [word: string, unit: string | undefined] | null {
  const bare = field.trimEnd();
  if (TIME_WORD.test(bare)) return [bare, undefined];
  const parts = unitInName(field);
  return parts && TIME_WORD.test(parts[0]) ? parts : null;
}
