import type { Flow } from '../lib/harness.js';
import { designByDragging, exportFlow, keyboardFlow, lintFlow, templateFlow } from './designFlows.js';
import { behaviourFormFlow, budgetFlow, everyTemplateFlow, inspectMessageFlow, simulateFlow } from './simFlows.js';
import { deployAndTraceFlow, divergenceFlow, unsupportedPlanFlow } from './brokerFlows.js';
import { operateFlow, operateLargeFlow } from './operateFlows.js';

export const flows: Flow[] = [designByDragging, templateFlow, simulateFlow, behaviourFormFlow, inspectMessageFlow, exportFlow, lintFlow, keyboardFlow, budgetFlow, everyTemplateFlow, deployAndTraceFlow, divergenceFlow, unsupportedPlanFlow, operateFlow, operateLargeFlow];
