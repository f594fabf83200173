/** What the heuristic reads of a channel: its catalogue entry (name, unit, storage type). */
export interface ChannelDescription {
  name: string;
  unit: string;
  dataType: string;
}

/** Names of channels whose values are states, not measurements: gears, flags, switches, counters, modes. */
const DISCRETE_NAME = /\b(gear|flags?|status|state|mode|switch|button|count(er)?|lap ?(number|no|count)|enabled?|active|on ?off|drs|pit ?lane)\b/i;
/** Units of state channels. */
const DISCRETE_UNIT = /^(|#|-|bool|boolean|enum|state|flag|gear|count|no|n)$/i;
/** Storage types of integers (int16, uint8, ...); scaled integers are common for measurements too, hence the unit check. */
const INTEGER_TYPE = /^u?int\d*$/i;

/**
 * True when a channel holds discrete values (gear, flags, integer status channels), so a plot holds each value until
 * the next sample (step interpolation) instead of drawing a slope between them. A heuristic: the name says so, or an
 * integer channel has no physical unit.
 */
export function isDiscreteChannel(channel: ChannelDescription): boolean {
  if (DISCRETE_NAME.test(channel.name.replace(/[_.]/g, ' '))) return true;
  return INTEGER_TYPE.test(channel.dataType.trim()) && DISCRETE_UNIT.test(channel.unit.trim());
}
