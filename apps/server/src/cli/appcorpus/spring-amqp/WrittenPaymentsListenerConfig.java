package com.example.payments.messaging;

import org.springframework.amqp.core.Queue;
import org.springframework.amqp.rabbit.annotation.RabbitListener;
import org.springframework.amqp.rabbit.config.SimpleRabbitListenerContainerFactory;
import org.springframework.amqp.rabbit.connection.ConnectionFactory;
import org.springframework.boot.autoconfigure.amqp.SimpleRabbitListenerContainerFactoryConfigurer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration
public class PaymentsListenerConfig {

    public static final String PAYMENTS_QUEUE = "payments.captured";

    @Bean
    public Queue paymentsQueue() {
        return new Queue(PAYMENTS_QUEUE, true);
    }

    @Bean
    public SimpleRabbitListenerContainerFactory paymentsContainerFactory(
            SimpleRabbitListenerContainerFactoryConfigurer configurer, ConnectionFactory connectionFactory) {
        SimpleRabbitListenerContainerFactory factory = new SimpleRabbitListenerContainerFactory();
        configurer.configure(factory, connectionFactory);
        factory.setConcurrentConsumers(2);
        factory.setPrefetchCount(25);
        return factory;
    }

    @RabbitListener(queues = PAYMENTS_QUEUE, containerFactory = "paymentsContainerFactory")
    public void onPaymentCaptured(String payload) {
        ledger.record(payload);
    }
}
