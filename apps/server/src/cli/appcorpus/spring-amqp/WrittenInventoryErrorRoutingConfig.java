package com.example.inventory.messaging;

import java.time.Duration;

import org.springframework.amqp.core.Binding;
import org.springframework.amqp.core.BindingBuilder;
import org.springframework.amqp.core.Queue;
import org.springframework.amqp.core.TopicExchange;
import org.springframework.amqp.rabbit.annotation.RabbitListener;
import org.springframework.amqp.rabbit.config.RetryInterceptorBuilder;
import org.springframework.amqp.rabbit.config.SimpleRabbitListenerContainerFactory;
import org.springframework.amqp.rabbit.connection.ConnectionFactory;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.amqp.rabbit.retry.MessageRecoverer;
import org.springframework.amqp.rabbit.retry.RepublishMessageRecoverer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration
public class InventoryErrorRoutingConfig {

    static final String STOCK_QUEUE = "inventory.stock-adjusted";
    static final String ERROR_EXCHANGE = "inventory.errors";
    static final String ERROR_ROUTING_KEY = "stock-adjusted.failed";

    @Bean
    public Queue stockQueue() {
        return new Queue(STOCK_QUEUE);
    }

    @Bean
    public TopicExchange errorExchange() {
        return new TopicExchange(ERROR_EXCHANGE);
    }

    @Bean
    public Queue parkingLot() {
        return new Queue("inventory.parking-lot");
    }

    @Bean
    public Binding parkingLotBinding() {
        return BindingBuilder.bind(parkingLot()).to(errorExchange()).with("#.failed");
    }

    @Bean
    public MessageRecoverer errorRecoverer(RabbitTemplate rabbitTemplate) {
        return new RepublishMessageRecoverer(rabbitTemplate, ERROR_EXCHANGE, ERROR_ROUTING_KEY);
    }

    @Bean
    public SimpleRabbitListenerContainerFactory rabbitListenerContainerFactory(
            ConnectionFactory connectionFactory, MessageRecoverer errorRecoverer) {
        SimpleRabbitListenerContainerFactory factory = new SimpleRabbitListenerContainerFactory();
        factory.setConnectionFactory(connectionFactory);
        factory.setAdviceChain(RetryInterceptorBuilder.stateless()
                .maxAttempts(3)
                .backOffOptions(Duration.ofSeconds(1).toMillis(), 1.0, Duration.ofSeconds(1).toMillis())
                .recoverer(errorRecoverer)
                .build());
        return factory;
    }

    @RabbitListener(queues = STOCK_QUEUE)
    public void onStockAdjusted(String event) {
        stock.apply(event);
    }
}
