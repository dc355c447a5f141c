export * from './model/definitions.js';
export * from './model/consumer.js';
export * from './model/publisher.js';
export * from './model/design.js';
export * from './sim/events.js';
export * from './scenario/types.js';
