package dev.retrystudio.prove.javaconfig;

import org.aopalliance.aop.Advice;
import org.springframework.amqp.core.AcknowledgeMode;
import org.springframework.amqp.rabbit.config.RetryInterceptorBuilder;
import org.springframework.amqp.rabbit.config.SimpleRabbitListenerContainerFactory;
import org.springframework.amqp.rabbit.connection.ConnectionFactory;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.amqp.rabbit.retry.ImmediateRequeueMessageRecoverer;
import org.springframework.amqp.rabbit.retry.MessageRecoverer;
import org.springframework.amqp.rabbit.retry.RejectAndDontRequeueRecoverer;
import org.springframework.amqp.rabbit.retry.RepublishMessageRecoverer;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * The container factory of a Spring AMQP Java configuration, built from what import-app read
 * (prove.javaconfig.*): the same calls the application makes (RetryInterceptorBuilder, its back-off,
 * its recoverer, setDefaultRequeueRejected, setAcknowledgeMode, setPrefetchCount), nothing more.
 */
@Configuration
@ConditionalOnProperty(name = "prove.mode", havingValue = "javaconfig")
public class JavaConfiguredFactory {
  private static final String P = "prove.javaconfig.";

  @Bean
  public SimpleRabbitListenerContainerFactory rabbitListenerContainerFactory(ConnectionFactory cf, RabbitTemplate template, Environment env) {
    SimpleRabbitListenerContainerFactory f = new SimpleRabbitListenerContainerFactory();
    f.setConnectionFactory(cf);
    String requeue = env.getProperty(P + "defaultRequeueRejected");
    if (requeue != null) f.setDefaultRequeueRejected(Boolean.parseBoolean(requeue));
    String ack = env.getProperty(P + "acknowledgeMode");
    if (ack != null) f.setAcknowledgeMode(AcknowledgeMode.valueOf(ack.toUpperCase()));
    String prefetch = env.getProperty(P + "prefetch");
    if (prefetch != null) f.setPrefetchCount(Integer.parseInt(prefetch));
    String retry = env.getProperty(P + "retry", "none");
    if (!retry.equals("none")) f.setAdviceChain(retryAdvice(retry, template, env));
    return f;
  }

  private static Advice retryAdvice(String retry, RabbitTemplate template, Environment env) {
    int maxAttempts = Integer.parseInt(env.getProperty(P + "maxAttempts", "3"));
    String backOff = env.getProperty(P + "backOff", "");
    MessageRecoverer recoverer = recoverer(env.getProperty(P + "recoverer", "none"), template, env);
    if (retry.equals("stateful")) {
      RetryInterceptorBuilder.StatefulRetryInterceptorBuilder b = RetryInterceptorBuilder.stateful().maxAttempts(maxAttempts);
      if (!backOff.isEmpty()) b.backOffOptions(l(backOff, 0), d(backOff, 1), l(backOff, 2));
      if (recoverer != null) b.recoverer(recoverer);
      return b.build();
    }
    RetryInterceptorBuilder.StatelessRetryInterceptorBuilder b = RetryInterceptorBuilder.stateless().maxAttempts(maxAttempts);
    if (!backOff.isEmpty()) b.backOffOptions(l(backOff, 0), d(backOff, 1), l(backOff, 2));
    if (recoverer != null) b.recoverer(recoverer);
    return b.build();
  }

  private static MessageRecoverer recoverer(String kind, RabbitTemplate template, Environment env) {
    return switch (kind) {
      case "reject" -> new RejectAndDontRequeueRecoverer();
      case "requeue" -> new ImmediateRequeueMessageRecoverer();
      case "republish" -> new RepublishMessageRecoverer(template, env.getProperty(P + "republishExchange", ""), env.getProperty(P + "republishRoutingKey"));
      default -> null;
    };
  }

  private static long l(String csv, int i) {
    return Long.parseLong(csv.split(",")[i].trim());
  }

  private static double d(String csv, int i) {
    return Double.parseDouble(csv.split(",")[i].trim());
  }
}
