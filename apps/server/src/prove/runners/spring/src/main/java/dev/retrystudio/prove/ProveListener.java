package dev.retrystudio.prove;

import java.nio.charset.StandardCharsets;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageProperties;
import org.springframework.amqp.rabbit.annotation.RabbitListener;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.stereotype.Component;

/** A @RabbitListener on the queues import-app read (Spring Boot's properties or the Java-configured factory shape it). */
@Component
@ConditionalOnExpression("'${prove.mode}' != 'stream'")
public class ProveListener {
  private final Attempts attempts;

  public ProveListener(Attempts attempts) {
    this.attempts = attempts;
  }

  @RabbitListener(queues = "#{'${prove.queues}'.split(',')}")
  public void onMessage(Message m) {
    MessageProperties p = m.getMessageProperties();
    Object xDeath = p.getHeaders().containsKey("x-death") ? p.getHeaders().get("x-death") : p.getXDeathHeader();
    attempts.attempt(p.getConsumerQueue(), new String(m.getBody(), StandardCharsets.UTF_8), p.getDeliveryTag(), p.getRedelivered(), p.getHeaders(), xDeath);
  }
}
