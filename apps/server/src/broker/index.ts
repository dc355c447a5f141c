/** THE broker layer: everything that talks to a broker goes through these. */
export * from './amqpUrl.js';
export * from './connection.js';
export * from './channelSlot.js';
export * from './confirmPublish.js';
export * from './management.js';
export * from './probe.js';
export * from './amqpValues.js';
export * from './brokerIdentity.js';
export * from './managementUrl.js';
export * from './resolveManagement.js';
export * from './cluster.js';
export * from './messageHeaders.js';
export * from './brokers.js';
export * from './throwawayVhost.js';
