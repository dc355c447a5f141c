/** @retry-studio/topology-core/routing: exchange routing: topic and headers matching, the exchange index, alternate exchanges, radlx, the delayed-message exchange. Named exports, so what the apps use is visible here. */
export { delayOf, MAX_DELAY_MS } from './delayedExchange.js';
export { radlxDeadSource, routeRadlx } from './radlx.js';
export { sampleTopicKey, topicMatches, topicWords, topicWordsMatch } from './topicMatcher.js';
export { topicPatternsIntersect, topicPatternsOverlap } from './topicOverlap.js';
export { amqpEquals, headersMatch, parseXMatch, type XMatch } from './headersMatcher.js';
export {
  type CompiledBinding,
  type CompiledExchange,
  compileExchanges,
  type Dest,
  type ExchangeIndex,
  type MatchType,
} from './exchangeIndex.js';
export { route, type RouteHop, type RouteMessage, type RouteOptions, Router, type RouteResult } from './route.js';
