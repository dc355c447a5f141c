package com.example.orders.config;

import org.springframework.amqp.core.Binding;
import org.springframework.amqp.core.BindingBuilder;
import org.springframework.amqp.core.DirectExchange;
import org.springframework.amqp.core.Queue;
import org.springframework.amqp.core.QueueBuilder;
import org.springframework.amqp.rabbit.config.RetryInterceptorBuilder;
import org.springframework.amqp.rabbit.config.SimpleRabbitListenerContainerFactory;
import org.springframework.amqp.rabbit.connection.ConnectionFactory;
import org.springframework.amqp.rabbit.retry.RejectAndDontRequeueRecoverer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration
public class OrdersRetryConfig {

    private static final String ORDERS = "orders.created";
    private static final String ORDERS_DLX = "orders.dlx";
    private static final String ORDERS_DLQ = "orders.created.dlq";

    private static final int MAX_ATTEMPTS = 4;
    private static final long INITIAL_INTERVAL_MS = 500L;
    private static final double MULTIPLIER = 2.0;
    private static final long MAX_INTERVAL_MS = 2_000L;

    @Bean
    public Queue ordersQueue() {
        return QueueBuilder.durable(ORDERS)
                .deadLetterExchange(ORDERS_DLX)
                .deadLetterRoutingKey(ORDERS_DLQ)
                .build();
    }

    @Bean
    public DirectExchange ordersDeadLetterExchange() {
        return new DirectExchange(ORDERS_DLX);
    }

    @Bean
    public Queue ordersDeadLetterQueue() {
        return QueueBuilder.durable(ORDERS_DLQ).build();
    }

    @Bean
    public Binding ordersDeadLetterBinding() {
        return BindingBuilder.bind(ordersDeadLetterQueue()).to(ordersDeadLetterExchange()).with(ORDERS_DLQ);
    }

    @Bean
    public SimpleRabbitListenerContainerFactory rabbitListenerContainerFactory(ConnectionFactory connectionFactory) {
        SimpleRabbitListenerContainerFactory factory = new SimpleRabbitListenerContainerFactory();
        factory.setConnectionFactory(connectionFactory);
        factory.setPrefetchCount(10);
        factory.setAdviceChain(RetryInterceptorBuilder.stateless()
                .maxAttempts(MAX_ATTEMPTS)
                .backOffOptions(INITIAL_INTERVAL_MS, MULTIPLIER, MAX_INTERVAL_MS)
                .recoverer(new RejectAndDontRequeueRecoverer())
                .build());
        return factory;
    }
}
