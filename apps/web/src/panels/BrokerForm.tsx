/** The broker context's form (store/brokerSlice.ts): where probe, plan, deploy, teardown, the live trace and operate go. */
import { useState } from 'react';
import { useApp } from '../store/store';
import { maskUrl } from '../broker/api';
import { recallBroker } from '../broker/brokerMemory';
import { vhostNamedBy } from '../broker/amqpUrlPreview';
import { managementOf } from '../broker/target';
import { TextField } from './fields';

export function BrokerForm() {
  const broker = useApp((s) => s.broker);
  const found = useApp((s) => s.managementFound);
  const [editing, setEditing] = useState(false);
  /** a broker URL brings back the management URL, prefix and vhost last used with it */
  const setUrl = (url: string) => useApp.getState().setBroker({ url, ...recallBroker(url) });
  const m = managementOf({ ...broker, managementUrl: '' }, found);
  return (
    <div>
      <TextField
        testid="broker-url"
        label="Broker URL"
        hint="The password is masked and kept in memory only; the server allows loopback brokers only."
        code
        value={editing ? broker.url : maskUrl(broker.url)}
        onFocus={() => setEditing(true)}
        onBlur={() => setEditing(false)}
        onChange={setUrl}
      />
      <TextField
        testid="broker-management-url"
        label="Management API URL (empty: found by itself)"
        placeholder={m.kind === 'candidates' ? m.urls.join(', then ') : `${m.url} (found by the probe)`}
        hint="Tried when empty, in turn: port 15672, then the AMQP port + 10000. Accepted only if it is the same broker as the URL above."
        code
        value={broker.managementUrl}
        onChange={(v) => useApp.getState().setBroker({ managementUrl: v })}
      />
      <TextField
        testid="deploy-prefix"
        label="Name prefix (keeps designs apart on one broker)"
        code
        value={broker.prefix}
        onChange={(v) => useApp.getState().setBroker({ prefix: v })}
      />
      <TextField
        testid="deploy-vhost"
        label="Vhost (empty: the broker URL's)"
        placeholder={vhostNamedBy(broker.url)}
        code
        value={broker.vhost}
        onChange={(v) => useApp.getState().setBroker({ vhost: v })}
      />
    </div>
  );
}
