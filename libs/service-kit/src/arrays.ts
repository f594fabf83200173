/**
 * Appends `items` to `target` one by one and returns `target`. `target.push(...items)` passes every item as an argument
 * on the stack: past about 100,000 of them it throws `RangeError: Maximum call stack size exceeded` (the events of a
 * big copy or delete), so lists whose length follows the data are appended with this.
 */
export function appendAll<T>(target: T[], items: Iterable<T>): T[] {
  for (const item of items) target.push(item);
  return target;
}
