/** The browser's Open / Import of an application's files: a Rascal JSON is the application's configuration, not a definitions export. */
import { describe, expect, it } from 'vitest';
import { readAppFiles } from './ImportAppConfig';

const rascal = {
  name: 'rascal.json',
  text: JSON.stringify({ vhosts: { '/': { queues: ['jobs'], subscriptions: { jobs: { queue: 'jobs' } } } } }),
};

describe('readAppFiles', () => {
  it('reads a Rascal JSON on its own as the application', () => {
    expect('open' in readAppFiles([rascal])).toBe(true);
  });

  it('still takes a definitions JSON beside the configuration, and says so when there is no configuration', () => {
    const defs = {
      name: 'defs.json',
      text: JSON.stringify({ rabbit_version: '3.13.0', queues: [], exchanges: [], bindings: [] }),
    };
    const r = readAppFiles([defs]);
    expect('error' in r && r.error).toMatch(/no application configuration file among them/);
  });
});
