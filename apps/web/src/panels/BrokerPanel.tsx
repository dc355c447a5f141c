export function BrokerPanel() {
  return <div className="p-3 text-xs text-slate-400">Not wired yet.</div>;
}
