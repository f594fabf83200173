/**
 * The account's connection is bound to the origin an admin set it for: its credentials go to that origin only. An
 * editor writes profiles (BaseUrl included) but cannot move an admin's credentials elsewhere by pointing one away.
 */

/** The origin (`scheme://host[:port]`) of an http(s) URL, or null. */
export function originOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : null;
  } catch {
    return null;
  }
}

export const UNBOUND_CONNECTION =
  "The account's connection names no baseUrl, so its credentials are sent nowhere: an admin sets the connection again with the baseUrl of the simulation system they are for";
export const OTHER_ORIGIN =
  "The simulation profile's BaseUrl is on another origin than the one the account's connection was set for: its credentials are sent only there (an admin sets the connection, an editor the profile)";

/** Why the connection bound to `origin` cannot be used with the profile's `baseUrl`, or null when it can. */
export function bindingRefusal(origin: string | null, baseUrl: string): string | null {
  if (origin === null) return UNBOUND_CONNECTION;
  return originOf(baseUrl) === origin ? null : OTHER_ORIGIN;
}
