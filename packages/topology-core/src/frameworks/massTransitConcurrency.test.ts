import { describe, expect, it } from 'vitest';
import { importAppConfig } from '../appconfig/importApp.js';
import { designToSimulation, simulate } from '../sim/index.js';

/** a consumer definition as MassTransit's samples write it: 20 at a time, three retries a second apart */
const definition = (limit: number | undefined) => `namespace Sample
{
    using MassTransit;

    public class SubmitOrderConsumerDefinition : ConsumerDefinition<SubmitOrderConsumer>
    {
        public SubmitOrderConsumerDefinition()
        {
            ${limit !== undefined ? `ConcurrentMessageLimit = ${limit};` : ''}
        }

        protected override void ConfigureConsumer(IReceiveEndpointConfigurator endpointConfigurator,
            IConsumerConfigurator<SubmitOrderConsumer> consumerConfigurator)
        {
            endpointConfigurator.UseMessageRetry(r => r.Interval(3, 1000));
        }
    }
}
`;

describe('MassTransit ConcurrentMessageLimit', () => {
  it('is the consumer prefetch: the simulator runs that many messages at once, as the browser draws them', () => {
    const app = importAppConfig([{ name: 'SubmitOrderConsumerDefinition.cs', text: definition(20) }]);
    const c = app.design.consumers[0]!;
    expect(c.prefetch).toBe(20);
    const run = simulate(designToSimulation(app.design, { messages: 3, failure: { kind: 'always' } }));
    const firstDelivery = (i: number) => run.events.find((e) => e.kind === 'delivered' && e.msgId.endsWith(`-${i}`))!.t;
    // three at once, each through its 1 s retries: all three delivered at the start
    expect([1, 2, 3].map(firstDelivery)).toEqual([0, 0, 0]);
  });

  it('without it, one message at a time (the model says so: prefetch left to its default of 1)', () => {
    const app = importAppConfig([{ name: 'SubmitOrderConsumerDefinition.cs', text: definition(undefined) }]);
    expect(app.design.consumers[0]!.prefetch).toBeUndefined();
  });
});
