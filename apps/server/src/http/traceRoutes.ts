import type { Express } from 'express';
import type { AppContext } from './app.js';
import type { RateLimitOptions } from './rateLimit.js';

export function registerTraceRoutes(_app: Express, _ctx: AppContext, _limit: RateLimitOptions): void {}
