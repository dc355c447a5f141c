/**
 * Open / Import, in the toolbar next to My designs: a file (a design, RabbitMQ definitions) or a
 * live vhost. The vhost import is the Operate tab's (one path): asked for here, done there.
 */
import { useApp } from '../store/store';
import { useOperate } from '../operate/operateStore';
import { vhostNamedBy } from '../broker/amqpUrlPreview';
import { contextVhost } from '../broker/target';
import { BrokerContextLine } from './BrokerContextLine';
import { ImportFile } from './ImportFile';
import { ToolbarMenu } from './ToolbarMenu';

export function OpenMenu() {
  const broker = useApp((s) => s.broker);
  const urlVhost = vhostNamedBy(broker.url);
  const importVhost = (close: () => void) => {
    // the Operate tab imports (it mounts with the designer view)
    useOperate.getState().set({ importAsked: true });
    useApp.getState().setView('designer');
    useApp.getState().setSideTab('operate');
    close();
  };
  return (
    <ToolbarMenu
      label="Open / Import"
      toggleTestId="open-toggle"
      menuTestId="open-menu"
      ariaLabel="Open or import"
      panelClassName="space-y-3"
    >
      {(close) => (
        <>
          <section>
            <div className="mb-1 font-semibold text-slate-300">
              A file: a Retry Studio design or RabbitMQ definitions JSON
            </div>
            <ImportFile onOpened={close} />
          </section>
          <section className="border-t border-slate-800 pt-2">
            <div className="mb-1 font-semibold text-slate-300">A live vhost</div>
            <label className="mb-1 block text-[11px] text-slate-400">
              Vhost (empty: the broker URL's)
              <input
                data-testid="open-vhost"
                value={broker.vhost}
                placeholder={urlVhost}
                onChange={(e) => useApp.getState().setBroker({ vhost: e.target.value })}
                className="mt-0.5 w-full rounded border border-slate-700 bg-slate-950 px-2 py-1 font-mono text-[11px] text-slate-100"
              />
            </label>
            <div className="mb-1">
              <BrokerContextLine panel="open" prefix={false} />
            </div>
            <button
              type="button"
              data-testid="open-import-vhost"
              onClick={() => importVhost(close)}
              className="rounded bg-sky-700 px-2 py-1 font-medium hover:bg-sky-600"
            >
              Import {contextVhost(broker)}
            </button>
          </section>
          <div className="text-[11px] text-slate-500">The open design stays in My designs; Ctrl+Z goes back to it.</div>
        </>
      )}
    </ToolbarMenu>
  );
}
