import { useEffect } from 'react';
import { ReactFlowProvider } from '@xyflow/react';
import { useApp } from './store/store';
import { panelHeightFor, type BottomTab, type SideTab } from './store/uiSlice';
import { Canvas } from './canvas/Canvas';
import { Palette } from './panels/Palette';
import { Toolbar } from './panels/Toolbar';
import { Inspector } from './panels/Inspector';
import { LintPanel } from './panels/LintPanel';
import { ExportPanel } from './panels/ExportPanel';
import { BrokerPanel } from './panels/BrokerPanel';
import { SimBar } from './panels/SimBar';
import { NodeLossControl } from './panels/NodeLossControl';
import { Timeline } from './panels/Timeline';
import { BudgetPanel } from './panels/BudgetPanel';
import { TunePanel } from './panels/TunePanel';
import { RehearsePanel } from './panels/RehearsePanel';
import { TracePanel } from './panels/TracePanel';
import { TemplateGallery } from './panels/TemplateGallery';
import { BackToMessage, MessagePane } from './panels/MessageDetail';
import { OperatePanel } from './panels/OperatePanel';
import { DeadLetterPanel } from './panels/DeadLetterPanel';
import { DesignsMenu } from './panels/DesignsMenu';
import { OpenMenu } from './panels/OpenMenu';
import { CanvasNotices } from './panels/CanvasNotices';
import { BottomResizer } from './panels/BottomResizer';
import { handleKey } from './commands/registry';
import { env } from './commands/env';
import { useLintFindings } from './lint/useLint';
import './commands/commands';

function Tabs<T extends string>({
  tabs,
  value,
  onChange,
  label,
}: {
  tabs: Array<{ id: T; label: string; badge?: number }>;
  value: T;
  onChange: (t: T) => void;
  label: string;
}) {
  return (
    <div role="tablist" aria-label={label} className="flex gap-0.5 border-b border-slate-800 bg-slate-900 px-1">
      {tabs.map((t) => (
        <button
          key={t.id}
          role="tab"
          type="button"
          aria-selected={value === t.id}
          data-testid={`tab-${t.id}`}
          onClick={() => onChange(t.id)}
          className={`px-2.5 py-1.5 text-xs focus:outline-none focus-visible:ring-2 focus-visible:ring-sky-400 ${value === t.id ? 'border-b-2 border-sky-400 text-slate-100' : 'text-slate-400 hover:text-slate-200'}`}
        >
          {t.label}
          {t.badge ? (
            <span className="ml-1 rounded-full bg-amber-600 px-1.5 text-[10px] text-white">{t.badge}</span>
          ) : null}
        </button>
      ))}
    </div>
  );
}

function Toast() {
  const toast = useApp((s) => s.toast);
  useEffect(() => {
    if (!toast) return;
    const t = setTimeout(() => useApp.setState({ toast: null }), 3500);
    return () => clearTimeout(t);
  }, [toast]);
  if (!toast) return null;
  return (
    <div
      role="status"
      data-testid="toast"
      className={`fixed bottom-4 left-1/2 z-50 -translate-x-1/2 rounded px-3 py-2 text-xs shadow-lg ${toast.tone === 'error' ? 'bg-red-700 text-white' : 'bg-slate-700 text-slate-100'}`}
    >
      {toast.text}
    </div>
  );
}

/** The Inspect tab: the inspected message (its path highlighted), else the node inspector, with a way back to the message */
function InspectPane() {
  const inspected = useApp((s) => s.inspectedMsg);
  const messagePane = useApp((s) => s.messagePane);
  if (inspected && messagePane) return <MessagePane />;
  return (
    <>
      {inspected && <BackToMessage msgId={inspected} />}
      <Inspector />
    </>
  );
}

/** The open design's name, as wide as it is (within reason) */
function DesignNameField() {
  const name = useApp((s) => s.design.name);
  return (
    <input
      aria-label="Design name"
      data-testid="design-name"
      className="min-w-0 shrink rounded border border-transparent bg-transparent px-1 text-sm text-slate-200 hover:border-slate-700 focus:border-slate-600 focus:outline-none"
      // as wide as the name, within reason: a tuned template's name ("… (maxRetries 5, delayMs 2000 ms)") was cut at 14 rem
      style={{ width: `${Math.min(52, Math.max(16, name.length + 2))}ch` }}
      title={name}
      value={name}
      onChange={(e) => {
        const s = useApp.getState();
        s.setDesign({ ...s.design, name: e.target.value }, { coalesce: 'name' });
      }}
    />
  );
}

export function App() {
  const view = useApp((s) => s.view);
  const sideTab = useApp((s) => s.sideTab);
  const bottomTab = useApp((s) => s.bottomTab);
  const lint = useLintFindings();
  const bottomHeight = useApp((s) => s.bottomHeight);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (useApp.getState().view !== 'designer') return;
      handleKey(e, env);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  return (
    <ReactFlowProvider>
      <div data-testid="app" className="flex h-screen w-screen flex-col overflow-hidden bg-slate-950 text-slate-100">
        <header className="flex h-11 shrink-0 items-center gap-3 border-b border-slate-800 bg-slate-900 px-3">
          <span className="text-sm font-bold tracking-tight text-sky-300">Retry Studio</span>
          <DesignNameField />
          <DesignsMenu />
          <OpenMenu />
          <Toolbar />
          <div className="ml-auto flex items-center gap-2">
            <button
              type="button"
              data-testid="open-gallery"
              onClick={() => useApp.getState().setView('gallery')}
              className="rounded bg-sky-700 px-2.5 py-1 text-xs font-medium hover:bg-sky-600 focus:outline-none focus-visible:ring-2 focus-visible:ring-sky-300"
            >
              Templates
            </button>
          </div>
        </header>
        {view === 'gallery' ? (
          <TemplateGallery />
        ) : (
          <div className="flex min-h-0 flex-1">
            <Palette />
            <main className="flex min-w-0 flex-1 flex-col">
              {/* layout containment: panel updates never re-layout the 300-node canvas (and back) */}
              <div className="relative min-h-0 flex-1" style={{ contain: 'strict' }}>
                <Canvas />
                <CanvasNotices />
              </div>
              <BottomResizer />
              <section
                data-testid="bottom-panel"
                aria-label="Simulation"
                style={{ contain: 'strict', height: panelHeightFor(bottomTab, bottomHeight, window.innerHeight) }}
                className="flex shrink-0 flex-col bg-slate-950"
              >
                <SimBar />
                {/* the node-loss fields go to a row of their own when they do not fit beside the tabs */}
                <div className="flex flex-wrap items-center justify-between">
                  <div className="shrink-0">
                    <Tabs<BottomTab>
                      label="Simulation views"
                      value={bottomTab}
                      onChange={(t) => useApp.getState().setBottomTab(t)}
                      tabs={[
                        { id: 'timeline', label: 'Timeline' },
                        { id: 'budget', label: 'Retry budget' },
                        { id: 'rehearse', label: 'Rehearse' },
                        { id: 'tune', label: 'Tune' },
                        { id: 'trace', label: 'Live trace' },
                        { id: 'deadLetters', label: 'Dead letters' },
                      ]}
                    />
                  </div>
                  <NodeLossControl />
                </div>
                <div className="min-h-0 flex-1 overflow-hidden">
                  {/* panels stay mounted when hidden: a running trace or a plan must survive a tab switch */}
                  <div className={bottomTab === 'timeline' ? 'h-full' : 'hidden'}>
                    <Timeline />
                  </div>
                  <div className={bottomTab === 'budget' ? 'h-full' : 'hidden'}>
                    <BudgetPanel />
                  </div>
                  <div className={bottomTab === 'rehearse' ? 'h-full' : 'hidden'}>
                    <RehearsePanel />
                  </div>
                  <div className={bottomTab === 'tune' ? 'h-full' : 'hidden'}>
                    <TunePanel />
                  </div>
                  <div className={bottomTab === 'trace' ? 'h-full' : 'hidden'}>
                    <TracePanel />
                  </div>
                  <div className={bottomTab === 'deadLetters' ? 'h-full' : 'hidden'}>
                    <DeadLetterPanel />
                  </div>
                </div>
              </section>
            </main>
            <aside
              data-testid="side-panel"
              aria-label="Details"
              className="flex w-[320px] shrink-0 flex-col border-l border-slate-800 bg-slate-900"
            >
              <Tabs<SideTab>
                label="Details"
                value={sideTab}
                onChange={(t) => useApp.getState().setSideTab(t)}
                tabs={[
                  { id: 'inspect', label: 'Inspect' },
                  { id: 'lint', label: 'Lint', badge: lint.findings.length },
                  { id: 'export', label: 'Export' },
                  { id: 'broker', label: 'Broker' },
                  { id: 'operate', label: 'Operate' },
                ]}
              />
              <div className="min-h-0 flex-1 overflow-auto">
                {sideTab === 'inspect' ? (
                  <InspectPane />
                ) : sideTab === 'lint' ? (
                  <LintPanel />
                ) : sideTab === 'export' ? (
                  <ExportPanel />
                ) : null}
                <div className={sideTab === 'broker' ? '' : 'hidden'}>
                  <BrokerPanel />
                </div>
                {/* stays mounted: live depths keep polling on other tabs */}
                <div className={sideTab === 'operate' ? '' : 'hidden'}>
                  <OperatePanel />
                </div>
              </div>
            </aside>
          </div>
        )}
        <Toast />
      </div>
    </ReactFlowProvider>
  );
}
