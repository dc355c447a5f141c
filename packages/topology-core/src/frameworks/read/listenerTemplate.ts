/** A listener whose queues are named elsewhere (Spring Boot's container, a Java container factory): see ListenerTemplate. */
import type { ListenerTemplate } from '../types.js';

export function buildListenerTemplate(t: {
  readonly consumer: ListenerTemplate['consumer'];
  readonly source: ListenerTemplate['source'];
  readonly standIn: string;
  /** its id on the stand-in queue */
  readonly standInId: string;
  readonly standInNote: string;
}): ListenerTemplate {
  return {
    consumer: t.consumer,
    source: t.source,
    standIn: t.standIn,
    standInNote: t.standInNote,
    idFor: (q) => (q === t.standIn ? t.standInId : `listener-${q}`),
  };
}
