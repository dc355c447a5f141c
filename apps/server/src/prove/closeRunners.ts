/** Ends the long-lived runner processes (the Spring JVMs): a CLI run's end, a test file's afterAll. */
import { closeSpringRunners } from './springRunners.js';

export async function closeRunners(): Promise<void> {
  await closeSpringRunners();
}
