/** Big definitions files for the canvas flows and bench:canvas (the builders are the core's testing fixtures). */
export {
  retryGroupsDefinitions,
  teamServicesDefinitions,
  tenantDefinitions,
} from '@retry-studio/topology-core/testing/big';
