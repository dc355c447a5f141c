/** The question is wrong (exit 2): a file of no known framework, a framework that cannot run here, a configuration that does not start. */
export class ProofError extends Error {}
