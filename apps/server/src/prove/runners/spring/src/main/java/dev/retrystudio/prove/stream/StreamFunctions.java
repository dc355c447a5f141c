package dev.retrystudio.prove.stream;

import dev.retrystudio.prove.Attempts;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.function.Consumer;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.BeanDefinitionRegistryPostProcessor;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.EnvironmentAware;
import org.springframework.stereotype.Component;
import org.springframework.core.ResolvableType;
import org.springframework.core.env.Environment;
import org.springframework.messaging.Message;

/**
 * Spring Cloud Stream: one Consumer<Message<byte[]>> bean per function the configuration's
 * bindings name (prove.functions, ';'-separated); the binder with the user's configuration does the rest.
 */
@Component
@ConditionalOnProperty(name = "prove.mode", havingValue = "stream")
public class StreamFunctions implements BeanDefinitionRegistryPostProcessor, EnvironmentAware {
  private Environment env;

  @Override
  public void setEnvironment(Environment environment) {
    this.env = environment;
  }

  @Override
  public void postProcessBeanDefinitionRegistry(BeanDefinitionRegistry registry) {
    BeanFactory beans = (BeanFactory) registry;
    ResolvableType type =
        ResolvableType.forClassWithGenerics(Consumer.class, ResolvableType.forClassWithGenerics(Message.class, byte[].class));
    for (String fn : env.getProperty("prove.functions", "").split(";")) {
      if (fn.isBlank()) continue;
      RootBeanDefinition def = new RootBeanDefinition();
      def.setTargetType(type);
      def.setInstanceSupplier(() -> consumer(beans.getBean(Attempts.class)));
      registry.registerBeanDefinition(fn, def);
    }
  }

  private static Consumer<Message<byte[]>> consumer(Attempts attempts) {
    return m -> {
      Map<String, Object> h = m.getHeaders();
      attempts.attempt(
          String.valueOf(h.get("amqp_consumerQueue")),
          new String(m.getPayload(), StandardCharsets.UTF_8),
          h.get("amqp_deliveryTag"),
          h.get("amqp_redelivered"),
          h,
          h.get("x-death"));
    };
  }
}
