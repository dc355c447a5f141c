/**
 * "Verify on the broker" (the CLI's --verify-on): the original and the migrated design declared
 * in throwaway vhosts on the Broker tab's broker, which must run the target line; what it refused
 * in its own words next to the check's prediction. The result belongs to the design version and
 * the check it was run for.
 */
import { useEffect, useState } from 'react';
import type { UpgradeVerifyResponse, VerifyRunView } from '@retry-studio/contract';
import type { BrokerProfileId } from '@retry-studio/topology-core/model';
import { useApp } from '../store/store';
import { api, ApiError, maskUrl } from '../broker/api';
import { brokerTarget } from '../broker/target';
import type { DesignVersion } from '../store/resultsVersion';
import { currentVersion, useFreshness } from '../store/useFreshness';
import { StaleNote } from './StaleNote';
import { marksFromVerify, useUpgradeMarks } from '../store/upgradeMarks';

interface Verified {
  readonly v: DesignVersion;
  readonly check: string;
  readonly result?: UpgradeVerifyResponse;
  readonly error?: string;
}

export function UpgradeVerify({ from, to }: { from: BrokerProfileId; to: BrokerProfileId }) {
  const brokerUrl = useApp((s) => s.broker.url);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<Verified | null>(null);
  const fresh = useFreshness(done?.v);
  const check = `${from}>${to}`;
  const verify = async () => {
    setBusy(true);
    const v = currentVersion();
    const s = useApp.getState();
    try {
      setDone({ v, check, result: await api.upgradeVerify(s.design, from, to, brokerTarget(s.broker)) });
    } catch (e) {
      setDone({
        v,
        check,
        error: e instanceof ApiError ? `${e.message}${e.field ? ` (${e.field})` : ''}` : (e as Error).message,
      });
    } finally {
      setBusy(false);
    }
  };
  const shown = done && done.check === check && (fresh === 'current' || fresh === 'stale') ? done : null;
  // what the broker refused is marked on the canvas while the result shown is this version's
  const marked = shown?.result && fresh === 'current' ? shown.result : null;
  useEffect(() => {
    useUpgradeMarks
      .getState()
      .setMarks('verify', marked ? marksFromVerify(marked.original.outcomes, marked.brokerVersion) : null);
  }, [marked]);
  useEffect(() => () => useUpgradeMarks.getState().setMarks('verify', null), []);
  return (
    <div data-testid="upgrade-verify" className="rounded border border-slate-700 p-2 text-slate-300">
      <div className="flex items-center gap-2">
        <button
          type="button"
          data-testid="upgrade-verify-run"
          disabled={busy}
          onClick={verify}
          className="rounded bg-slate-700 px-2 py-0.5 hover:bg-slate-600 disabled:opacity-40"
        >
          {busy ? 'Verifying…' : `Verify on the broker`}
        </button>
        <span
          className="truncate font-mono text-[10px] text-slate-500"
          title="the Broker tab's URL: it must run the target line"
        >
          {maskUrl(brokerUrl)}
        </span>
      </div>
      <div className="mt-1 text-[10px] text-slate-500">
        Declares the design and its migration in throwaway vhosts (deleted afterwards) and sets what the broker refused
        beside the prediction.
      </div>
      {shown?.error && (
        <div role="alert" data-testid="upgrade-verify-error" className="mt-1 text-red-300">
          {shown.error}
        </div>
      )}
      {shown?.result && (
        <div data-testid="upgrade-verify-result" data-agrees={shown.result.agrees} className="mt-1 space-y-1">
          {fresh === 'stale' && <StaleNote what="This verification was" />}
          <div className={shown.result.agrees ? 'text-emerald-400' : 'text-red-300'}>
            RabbitMQ {shown.result.brokerVersion}:{' '}
            {shown.result.agrees ? 'every answer as predicted' : 'the broker did not do what the check predicted'}
          </div>
          <RunView title="original" run={shown.result.original} />
          <RunView title="migrated" run={shown.result.migrated} />
          <div className="text-[11px]">
            original as one definitions import:{' '}
            {shown.result.originalImport.accepted
              ? 'accepted'
              : `refused: ${shown.result.originalImport.brokerSaid ?? ''}`}
            {shown.result.originalImport.agrees ? '' : ' (not as predicted)'}
          </div>
        </div>
      )}
    </div>
  );
}

function RunView({ title, run }: { title: string; run: VerifyRunView }) {
  const refused = run.outcomes.filter((o) => !o.accepted);
  return (
    <div data-testid="upgrade-verify-run-view" data-run={title} className="text-[11px]">
      <div>
        {title}: {run.outcomes.length - refused.length} of {run.outcomes.length} accepted
        {run.cleanedUp ? '' : ` (vhost ${run.vhost} NOT deleted)`}
      </div>
      <ul className="ml-3 list-disc">
        {refused.map((o) => (
          <li key={o.object} className={o.agrees ? 'text-amber-200' : 'text-red-300'}>
            {o.object}: {o.brokerSaid}{' '}
            {o.predicted === 'refused'
              ? '(predicted)'
              : o.object.startsWith('binding ')
                ? '(follows its source or destination)'
                : '(NOT predicted)'}
          </li>
        ))}
        {run.outcomes
          .filter((o) => o.accepted && !o.agrees)
          .map((o) => (
            <li key={o.object} className="text-red-300">
              {o.object}: accepted, predicted refused
            </li>
          ))}
      </ul>
    </div>
  );
}
