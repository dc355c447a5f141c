/** The broker form: where probe, plan, deploy, teardown and the live trace go. */
import { useState } from 'react';
import { useApp } from '../store/store';
import { maskUrl } from '../broker/api';
import { recallBroker } from '../broker/brokerMemory';
import { vhostNamedBy } from '../broker/vhostNamedBy';
import { TextField } from './fields';

/** `found`: the management API the last probe of this broker found (the field's placeholder says it, never a port it did not use) */
export function BrokerForm({ found }: { found?: string | undefined }) {
  const url = useApp((s) => s.brokerUrl);
  const prefix = useApp((s) => s.deployPrefix);
  const managementUrl = useApp((s) => s.managementUrl);
  const vhost = useApp((s) => s.deployVhost);
  const [editing, setEditing] = useState(false);
  /** a broker URL brings back the management URL, prefix and vhost last used with it */
  const setUrl = (brokerUrl: string) => useApp.getState().setBroker({ brokerUrl, ...recallBroker(brokerUrl) });
  return (
    <div>
      <TextField
        testid="broker-url"
        label="Broker URL"
        hint="The password is masked; the server allows loopback brokers only."
        code
        value={editing ? url : maskUrl(url)}
        onFocus={() => setEditing(true)}
        onBlur={() => setEditing(false)}
        onChange={setUrl}
      />
      <TextField
        testid="broker-management-url"
        label="Management API URL (empty: found by itself)"
        placeholder={found ? `${found} (found by the probe)` : 'found by itself'}
        hint="Tried when empty: port 15672, then the AMQP port + 10000. Accepted only if it is the same broker as the URL above."
        code
        value={managementUrl}
        onChange={(v) => useApp.getState().setBroker({ managementUrl: v })}
      />
      <TextField
        testid="deploy-prefix"
        label="Name prefix (keeps designs apart on one broker)"
        code
        value={prefix}
        onChange={(v) => useApp.getState().setBroker({ deployPrefix: v })}
      />
      <TextField
        testid="deploy-vhost"
        label="Vhost (empty: the broker URL's)"
        placeholder={vhostNamedBy(url)}
        code
        value={vhost}
        onChange={(v) => useApp.getState().setBroker({ deployVhost: v })}
      />
    </div>
  );
}
