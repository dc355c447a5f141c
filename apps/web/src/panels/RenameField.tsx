import { useEffect, useId, useState } from 'react';
import type { ValidationIssue } from '@retry-studio/topology-core/model';
import { useApp } from '../store/store';
import { renameNode } from '../model/designEdit';
import { parseNodeId, nodeIdOf } from '../model/nodeIds';
import { FieldShell, border, inputCls } from './fields';

/**
 * The name of an exchange or queue. Typing edits a draft; Enter or leaving the field renames
 * (every reference follows, one undo step), Escape puts the name back. A taken or invalid
 * name is refused with the reason, and the design keeps the old name.
 */
export function RenameField({ nodeId, value, issues }: { nodeId: string; value: string; issues: ValidationIssue[] }) {
  const id = useId();
  const [draft, setDraft] = useState(value);
  const [refused, setRefused] = useState<ValidationIssue | undefined>();
  useEffect(() => {
    setDraft(value);
    setRefused(undefined);
  }, [value]);
  const commit = () => {
    if (draft === value) return setRefused(undefined);
    const r = renameNode(useApp.getState().design, nodeId, draft);
    if (!r.ok) return setRefused(r.error);
    const kind = parseNodeId(nodeId)?.kind;
    useApp.getState().setDesign(r.design);
    if (kind) useApp.getState().select([nodeIdOf(kind, draft)]);
  };
  const shown = refused ? [refused, ...issues] : issues;
  return (
    <FieldShell label="Name" issues={shown} hint="Enter renames it and every reference to it" id={id}>
      <input
        id={id}
        data-testid="field-name"
        className={`${inputCls} ${border(shown)}`}
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit();
          if (e.key === 'Escape') {
            setDraft(value);
            setRefused(undefined);
          }
        }}
        aria-invalid={shown.length > 0 || undefined}
      />
    </FieldShell>
  );
}
