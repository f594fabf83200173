/** Names of everything the bus declares on the broker; every name carries the bus prefix. */
export class Topology {
  constructor(readonly prefix: string) {}

  /** One durable request queue per service; its instances compete for it. */
  serviceQueue(service: string): string {
    return `${this.prefix}svc.${service}`;
  }

  exchange(name: string): string {
    return `${this.prefix}${name}`;
  }

  queue(name: string): string {
    return `${this.prefix}${name}`;
  }

  /** Events that failed `maxDeliveries` times end here instead of looping forever. */
  deadLetterQueue(): string {
    return `${this.prefix}dlq`;
  }

  /** The logical exchange name an event was published to, as subscribers see it. */
  unprefixExchange(exchange: string): string {
    return exchange.startsWith(this.prefix) ? exchange.slice(this.prefix.length) : exchange;
  }
}

/** RabbitMQ topic matching: `*` is exactly one word, `#` is zero or more words. */
export function topicMatches(pattern: string, routingKey: string): boolean {
  return matchWords(pattern.split('.'), 0, routingKey.split('.'), 0);
}

function matchWords(pattern: string[], p: number, key: string[], k: number): boolean {
  if (p === pattern.length) return k === key.length;
  const word = pattern[p];
  if (word === '#') {
    for (let skip = k; skip <= key.length; skip++) {
      if (matchWords(pattern, p + 1, key, skip)) return true;
    }
    return false;
  }
  if (k === key.length) return false;
  return (word === '*' || word === key[k]) && matchWords(pattern, p + 1, key, k + 1);
}
