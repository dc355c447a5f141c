// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { APP_NOTES_HEADING, describeApp, importAppConfig } from '@retry-studio/topology-core/appconfig';
import { springBootYml } from '@retry-studio/topology-core/testing/appconfig';
import { notModelledFirst } from './ImportAppConfig';

describe("an application's configuration, as the browser shows the CLI's summary", () => {
  it('puts what is not modelled (the stand-in queue) on top, every line of the CLI kept', () => {
    const app = importAppConfig([{ name: 'application.yml', text: springBootYml({ enabled: true, maxAttempts: 3 }) }]);
    const cli = describeApp(app).trimEnd().split('\n');
    const shown = notModelledFirst(cli);
    expect([...shown].sort()).toEqual([...cli].sort());
    expect(shown[0]).toBe(APP_NOTES_HEADING);
    expect(shown[1]).toMatch(/stand-in queue "app\.queue"/);
    expect(shown.some((l) => /dropped in app\.queue/.test(l))).toBe(true);
  });
  it('leaves a summary with nothing unmodelled as it is', () => {
    expect(notModelledFirst(['a', '- b', '  c'])).toEqual(['a', '- b', '  c']);
  });
});
