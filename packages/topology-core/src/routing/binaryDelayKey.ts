/**
 * The routing key of plugin-free binary delays (the NServiceBus / kombu design): the delay, in
 * units, written in binary over `levels` words (`b(L-1)....b0.destination`); level i keeps the
 * message for 2^i units when its bit is 1. Shared by the binary-delay template and the
 * NServiceBus reader.
 */
export function binaryDelayRoutingKey(units: number, levels: number, destination: string): string {
  const bits: string[] = [];
  for (let i = levels - 1; i >= 0; i--) bits.push(Math.floor(units / 2 ** i) % 2 === 1 ? '1' : '0');
  return `${bits.join('.')}.${destination}`;
}
