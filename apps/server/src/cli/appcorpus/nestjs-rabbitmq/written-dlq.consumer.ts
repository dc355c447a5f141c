import { Injectable, Module } from '@nestjs/common';
import { MessageHandlerErrorBehavior, RabbitMQModule, RabbitSubscribe } from '@golevelup/nestjs-rabbitmq';

@Injectable()
export class ShipmentConsumer {
  constructor(private readonly carriers: CarrierClient) {}

  @RabbitSubscribe({
    exchange: 'shipping',
    routingKey: 'shipment.requested',
    queue: 'shipping.book-carrier',
    errorBehavior: MessageHandlerErrorBehavior.NACK,
    queueOptions: {
      durable: true,
      deadLetterExchange: 'shipping.dlx',
      deadLetterRoutingKey: 'shipment.requested.failed',
    },
  })
  async bookCarrier(request: { shipmentId: string }) {
    await this.carriers.book(request.shipmentId);
  }
}

@Module({
  imports: [
    RabbitMQModule.forRoot({
      uri: process.env.RABBITMQ_URI ?? 'amqp://localhost:5672',
      exchanges: [
        { name: 'shipping', type: 'topic' },
        { name: 'shipping.dlx', type: 'direct' },
      ],
      queues: [{ name: 'shipping.book-carrier.dead', exchange: 'shipping.dlx', routingKey: 'shipment.requested.failed' }],
      prefetchCount: 20,
    }),
  ],
  providers: [ShipmentConsumer],
})
export class ShippingModule {}
