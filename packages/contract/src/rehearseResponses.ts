/** The response of POST /api/rehearse: the core's report (the names: messages, outcomes, queues, brokerOps, ...). */
import type { RehearsalReport } from '@retry-studio/topology-core/rehearse';

export type RehearseResponse = RehearsalReport;
