import type { Flow } from '../lib/harness.js';
import { designByDragging, exportFlow, keyboardFlow, lintFlow, templateFlow } from './designFlows.js';
import { behaviourFormFlow, budgetFlow, everyTemplateFlow, inspectMessageFlow, simulateFlow } from './simFlows.js';
import { workKeptFlows } from './workKeptFlows.js';
import { designerTruthFlows } from './designerTruthFlows.js';
import {
  deployAndTraceFlow,
  divergenceFlow,
  policyPlanFlow,
  traceFailureModelFlow,
  unsupportedPlanFlow,
} from './brokerFlows.js';
import { broker43Flow } from './broker43Flows.js';
import { renameFlow } from './renameFlow.js';
import { operateFlow, operateLargeFlow } from './operateFlows.js';
import { canaryRedriveFlow, editRedriveFlow } from './redriveFlows.js';
import { exportFormatsFlow } from './exportFlows.js';
import { clusterFlow } from './clusterFlows.js';
import { upgradeFlow } from './upgradeFlow.js';
import { resultsFlows } from './resultsFlows.js';
import { appConfigFlow } from './appConfigFlow.js';
import { outcomeTruthFlow } from './outcomeTruthFlow.js';
import { webFlows } from './webFlows.js';
import { canvasScaleFlows } from './canvasScaleFlows.js';
import { bigFileFlows } from './bigFileFlows.js';
import { tuneFlow } from './tuneFlows.js';
import { rehearseFlow } from './rehearseFlows.js';
import { brokerContextFlow } from './brokerContextFlow.js';
import { modelTruthFlow } from './modelTruthFlow.js';
import { discardedFlow } from './discardedFlow.js';
import { assumedActorsFlow } from './assumedActorsFlow.js';

export const flows: Flow[] = [
  designByDragging,
  templateFlow,
  simulateFlow,
  behaviourFormFlow,
  inspectMessageFlow,
  exportFlow,
  exportFormatsFlow,
  lintFlow,
  keyboardFlow,
  renameFlow,
  budgetFlow,
  everyTemplateFlow,
  deployAndTraceFlow,
  divergenceFlow,
  traceFailureModelFlow,
  unsupportedPlanFlow,
  policyPlanFlow,
  broker43Flow,
  clusterFlow,
  operateFlow,
  operateLargeFlow,
  canaryRedriveFlow,
  editRedriveFlow,
];
// the designer's own flows (names start with "designer:")
flows.push(...workKeptFlows);
flows.push(upgradeFlow);
// results: current, room to read, operate defaults, open/import (names start with "results:")
flows.push(...resultsFlows);
// issue 26's designer points (names start with "designer-truth:")
flows.push(...designerTruthFlows);
// issue 33: an application's retry configuration opened in the browser
flows.push(appConfigFlow);
// issue 29: one outcome per message (name starts with "outcome truth:")
flows.push(outcomeTruthFlow);
// issue 30's smaller journeys (names start with "web-flows:")
flows.push(...webFlows);
// issue 30's canvas points: readable at any zoom, big designs (names start with "canvas:")
flows.push(...canvasScaleFlows);
// issue 41's big files and readable opening views (names start with "canvas-big:")
flows.push(...bigFileFlows);
// issue 32's Tune panel (name starts with "tune:")
flows.push(tuneFlow);
// issue 31's Rehearse tab and issue 32's Compare (name starts with "rehearse:")
flows.push(rehearseFlow);
// issue 41's broker context, live replay, model truth and smaller points (names start with "browser-flow:")
flows.push(brokerContextFlow, modelTruthFlow);
// issue 41's last points (names start with "browser-finish:")
flows.push(discardedFlow, assumedActorsFlow);
