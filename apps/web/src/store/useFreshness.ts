/** How a stamped result stands against the open design: current, stale (an earlier version) or another design's. */
import { useApp } from './store';
import { freshness, versionOf, type DesignVersion, type Freshness } from './resultsVersion';

export function useFreshness(v: DesignVersion | null | undefined): Freshness | null {
  const docId = useApp((s) => s.docId);
  const revision = useApp((s) => s.designRevision);
  return v ? freshness(v, { docId, revision }) : null;
}

/** The stamp for a result computed now. */
export function currentVersion(): DesignVersion {
  return versionOf(useApp.getState());
}
