import { Injectable, Logger } from '@nestjs/common';
import { RabbitSubscribe } from '@golevelup/nestjs-rabbitmq';
import { SearchIndexService } from '../search/search-index.service';

@Injectable()
export class ProductIndexConsumer {
  private readonly logger = new Logger(ProductIndexConsumer.name);

  constructor(private readonly searchIndex: SearchIndexService) {}

  @RabbitSubscribe({
    exchange: 'catalog',
    routingKey: 'product.updated',
    queue: 'search.product-index',
  })
  async onProductUpdated(event: { productId: string }) {
    this.logger.log(`reindexing ${event.productId}`);
    await this.searchIndex.reindex(event.productId);
  }
}
