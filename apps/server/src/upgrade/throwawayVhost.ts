/** Moved to the broker layer (one lifecycle for every throwaway vhost): kept here so existing imports hold. */
export { inThrowawayVhost } from '../broker/throwawayVhost.js';
