/** @retry-studio/topology-core/scenario: retry-scenario/1: types, loading, running on the simulator, comparison. Named exports, so what the apps use is visible here. */
export {
  type Observed,
  type ObservedDeath,
  type ObservedDelivery,
  type ObservedMessage,
  type Scenario,
  SCENARIO_FORMAT,
  type ScenarioAction,
  type ScenarioConsumer,
  type ScenarioPublishProperties,
  type ScenarioStep,
} from './types.js';
export {
  DEFAULT_SETTLE_MS,
  fromScenario,
  SCENARIO_MAX_EVENTS,
  scenarioAction,
  scenarioConsumers,
  type ScenarioSimOptions,
  scenarioSteps,
} from './fromScenario.js';
export { normaliseDeaths, observe } from './observe.js';
export { compareObserved, type Comparison } from './compare.js';
export { type ScenarioSimRun, simulateScenario } from './runScenario.js';
export {
  isScenarioProfile,
  profileFromRecordedOn,
  SCENARIO_PROFILES,
  type ScenarioProfile,
} from './scenarioProfile.js';
