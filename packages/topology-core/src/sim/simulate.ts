/** Run a simulation to completion. */
import { Simulator } from './simulator.js';
import type { SimulationInput, SimulationResult } from './types.js';

export function simulate(input: SimulationInput): SimulationResult {
  return new Simulator(input).run();
}
