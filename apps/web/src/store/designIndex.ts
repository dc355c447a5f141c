/**
 * The list of designs kept in this browser (without their bodies: My designs lists it, a design's
 * body is read when it opens) and how a change to one design changes it. Pure: both storages
 * (IndexedDB, and localStorage where IndexedDB is refused) keep the same index.
 */
import type { Design } from '@retry-studio/topology-core/model';

export const STORAGE_VERSION = 2;

export interface DesignEntry {
  id: string;
  name: string;
  /** ms since the epoch of the last change to the design's content */
  updatedAt: number;
  /** an untouched template or blank canvas: dropped when something replaces it */
  pristine?: boolean;
  /** the RabbitMQ version it came from (its file's `rabbitmq_version`, or the broker probed with it open) */
  brokerVersion?: string;
}

export interface DesignIndex {
  version: typeof STORAGE_VERSION;
  /** the design open when the page was left */
  currentId: string | null;
  designs: DesignEntry[];
}

export interface SaveOptions {
  pristine?: boolean;
  /** the content changed (not only opened): its time is now */
  touched?: boolean;
  /** it is the open design */
  current?: boolean;
  /** the broker version learnt for it (kept when not given) */
  brokerVersion?: string;
}

export const emptyIndex = (): DesignIndex => ({ version: STORAGE_VERSION, currentId: null, designs: [] });

/** a stored index, or null when it is not one (another version, a broken value) */
export function indexFrom(v: unknown): DesignIndex | null {
  if (!v || typeof v !== 'object') return null;
  const i = v as Partial<DesignIndex>;
  if (i.version !== STORAGE_VERSION || !Array.isArray(i.designs)) return null;
  const designs = i.designs
    .filter((e): e is DesignEntry => !!e && typeof e.id === 'string' && typeof e.name === 'string')
    .map(({ brokerVersion, ...e }) => (typeof brokerVersion === 'string' ? { ...e, brokerVersion } : e));
  return { version: STORAGE_VERSION, currentId: typeof i.currentId === 'string' ? i.currentId : null, designs };
}

/** the index with this design's entry written (created when missing, first) */
export function withDesign(index: DesignIndex, id: string, design: Design, opts: SaveOptions = {}): DesignIndex {
  const old = index.designs.find((e) => e.id === id);
  const brokerVersion = opts.brokerVersion ?? old?.brokerVersion;
  const entry: DesignEntry = {
    id,
    name: design.name,
    updatedAt: !old || opts.touched ? Date.now() : old.updatedAt,
    ...(opts.pristine ? { pristine: true } : {}),
    ...(brokerVersion ? { brokerVersion } : {}),
  };
  return {
    ...index,
    currentId: opts.current ? id : index.currentId,
    designs: old ? index.designs.map((e) => (e.id === id ? entry : e)) : [entry, ...index.designs],
  };
}

export function withoutDesign(index: DesignIndex, id: string): DesignIndex {
  return {
    ...index,
    designs: index.designs.filter((e) => e.id !== id),
    currentId: index.currentId === id ? null : index.currentId,
  };
}

/** The designs kept in this browser: bodies by id, the index beside them. Each call is one step (a transaction). */
export interface DesignStorage {
  readIndex(): Promise<DesignIndex>;
  readDesign(id: string): Promise<Design | null>;
  /** writes the body and its index entry together; the index as it is after (unchanged when the write failed) */
  saveDesign(id: string, design: Design, opts?: SaveOptions): Promise<DesignIndex>;
  removeDesign(id: string): Promise<DesignIndex>;
}
